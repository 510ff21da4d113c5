import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type SmtpTestServer, startSmtpTestServer } from "@mailpulse/testing/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StandaloneServer, startStandalone } from "./support/start-standalone.js";

const userAgents = {
  applePrivacy: "Mozilla/5.0",
  gmailProxy: "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
  chrome:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
};

/**
 * The measurement issue's "done when", as a new user: `npm start` behind a proxy
 * (MAILPULSE_TRUST_PROXY, so each client's address comes from X-Forwarded-For, as a load
 * balancer would write it), a campaign sent through real SMTP to an Apple Mail reader with
 * Privacy Protection, a Gmail reader and a corporate inbox behind Microsoft Defender. The raw
 * and human figures differ by the machine traffic, and each event says why. Real time: the Gmail
 * reader clicks 6 s after the send (a click sooner than 5 s is no reader's).
 */
describe("the standalone server: human figures as a new user", () => {
  const folder = mkdtempSync(join(tmpdir(), "mailpulse-measure-"));
  let smtp: SmtpTestServer;
  let server: StandaloneServer;
  let baseUrl: string;
  let apiKey: string;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    server = await startStandalone({
      MAILPULSE_DATABASE: join(folder, "mailpulse.db"),
      MAILPULSE_SMTP_URL: smtp.url,
      // The SMTP peer is on loopback, and so is every reader of its mail.
      MAILPULSE_ALLOW_PRIVATE_BASE_URL: "true",
      MAILPULSE_TRUST_PROXY: "1",
    });
    ({ baseUrl, apiKey } = server);
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  // biome-ignore lint/suspicious/noExplicitAny: loosely typed JSON answers.
  async function call(method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { "x-api-key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBeLessThan(300);
    return response.json();
  }

  /** A hit as a mail client makes it, through the proxy in front of the server. */
  const hit = (url: string, userAgent: string, clientIp: string) =>
    // The tracking URLs name MAILPULSE_BASE_URL (unset: localhost with PORT, 0 here); the path is what counts.
    fetch(`${baseUrl}${new URL(url).pathname}`, {
      redirect: "manual",
      headers: { "user-agent": userAgent, "x-forwarded-for": clientIp },
    });

  it("shows raw and human opens and clicks that differ by the machine traffic, each event saying why", async () => {
    const campaign = await call("POST", "/api/campaigns", { name: "Spring" });
    const send = (to: string) =>
      call("POST", "/api/send", {
        from: "Shop <news@shop.example>",
        to,
        subject: "Spring sale",
        htmlContent:
          '<html><body><p><a href="https://shop.example/sale">Sale</a> <a href="https://shop.example/new">New</a></p></body></html>',
        campaignId: "Spring",
      });
    const apple = await send("ann@icloud.example");
    const gmail = await send("bob@gmail.example");
    const corporate = await send("carol@corp.example");
    expect(smtp.messages).toHaveLength(3);

    // On delivery: Apple fetches Ann's pixel; Defender fetches Carol's pixel and follows both links.
    await hit(apple.pixelUrl, userAgents.applePrivacy, "17.58.10.20");
    await hit(corporate.pixelUrl, userAgents.chrome, "40.94.31.7");
    for (const link of corporate.links) await hit(link.trackingUrl, userAgents.chrome, "40.94.31.8");
    // Bob opens in Gmail (Google's image proxy fetches for him), then clicks from his laptop.
    await hit(gmail.pixelUrl, userAgents.gmailProxy, "66.249.84.10");
    await sleep(6_000);
    expect((await hit(gmail.links[0].trackingUrl, userAgents.chrome, "81.2.69.160")).status).toBe(302);

    const detail = await call("GET", `/api/campaigns/${campaign.id}`);
    expect(detail.stats).toEqual({
      totalEmails: 3,
      totalOpens: 3,
      totalClicks: 3,
      openRate: 100,
      clickRate: 66.67,
      hardBounces: 0,
      softBounces: 0,
      complaints: 0,
      unsubscribes: 0,
      hardBounceRate: 0,
      softBounceRate: 0,
      complaintRate: 0,
      unsubscribeRate: 0,
      human: { totalOpens: 1, totalClicks: 1, openRate: 33.33, clickRate: 33.33, noInteraction: 2 },
    });
    const period = await call("GET", `/api/campaigns/${campaign.id}/stats?period=7d`);
    expect(period.stats.human).toEqual({
      totalOpens: 1,
      totalClicks: 1,
      openRate: 33.33,
      clickThroughRate: 100,
      noInteraction: 2,
    });
    expect((await call("GET", "/api/stats")).human).toEqual({
      totalOpens: 1,
      totalClicks: 1,
      openRate: 33.33,
      clickRate: 33.33,
    });

    const why = async (emailTrackingId: string) =>
      (
        await call("GET", `/api/events?emailTrackingId=${emailTrackingId}&type=EMAIL_OPENED,EMAIL_CLICKED`)
      ).data.map(
        // biome-ignore lint/suspicious/noExplicitAny: loosely typed JSON answers.
        ({ type, data }: any) => [type, data.machine, data.source, data.reasons, data.ip],
      );
    expect(await why(apple.emailTrackingId)).toEqual([
      [
        "EMAIL_OPENED",
        true,
        "apple_privacy",
        ["Apple Mail Privacy Protection proxy address and user agent"],
        "17.58.10.0",
      ],
    ]);
    const defender = ["address of the Microsoft Exchange Online Protection mail security gateway"];
    expect(await why(corporate.emailTrackingId)).toEqual([
      ["EMAIL_OPENED", true, "security_scanner", defender, "40.94.31.0"],
      ["EMAIL_CLICKED", true, "security_scanner", defender, "40.94.31.0"],
      ["EMAIL_CLICKED", true, "security_scanner", defender, "40.94.31.0"],
    ]);
    expect(await why(gmail.emailTrackingId)).toEqual([
      [
        "EMAIL_OPENED",
        false,
        "image_proxy",
        ["Gmail image proxy, fetching the pixel for a reader who opened the message"],
        "66.249.84.0",
      ],
      ["EMAIL_CLICKED", false, "human", ["no machine signal"], "81.2.69.0"],
    ]);
  });
});
