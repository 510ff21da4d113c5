import { addressRangeRule, createMailPulse, type MailPulseOptions, memoryProvider } from "@mailpulse/core";
import { createTestClock } from "@mailpulse/testing";
import { afterEach, describe, expect, it } from "vitest";
import { storageFactories } from "../support/storages.js";

const chrome =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe.each(storageFactories)("verdicts recorded by the tracking endpoints on $name", ({ create }) => {
  async function setup(tracking: MailPulseOptions["tracking"] = {}) {
    const storage = await create();
    const clock = createTestClock("2026-11-02T09:00:00.000Z");
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "http://mail.test",
      mailProvider: memoryProvider(),
      clock,
      tracking,
    });
    closers.push(async () => {
      await mailpulse.stop();
      await storage.close();
    });
    const organization = await mailpulse.organizations.create({ name: "Acme" });
    const campaign = await mailpulse.campaigns.create(organization.id, { name: "Launch" });
    const sent = await mailpulse.emails.send(organization.id, {
      from: "a@acme.example",
      to: "b@example.com",
      subject: "S",
      htmlContent:
        '<a href="https://example.com/x">x</a> <a href="https://example.com/y">y</a> <a href="https://example.com/z">z</a>',
      campaignId: "Launch",
    });
    const hit = (url: string, headers: Record<string, string>, clientIp: string) =>
      mailpulse.handler(new Request(url, { headers }), { clientIp });
    const events = async () =>
      (await mailpulse.events.list(organization.id, { type: "EMAIL_OPENED,EMAIL_CLICKED" })).data.map(
        ({ data }) => ({ ip: data.ip, machine: data.machine, source: data.source, reasons: data.reasons }),
      );
    const human = async () => (await mailpulse.campaigns.get(organization.id, campaign.id)).stats.human;
    return { mailpulse, organization, sent, hit, events, clock, human };
  }

  it("takes the address from X-Forwarded-For only with trustProxy, and judges it before truncating it", async () => {
    const trusted = await setup({ trustProxy: 1 });
    const headers = { "user-agent": "Mozilla/5.0", "x-forwarded-for": "17.58.1.2" };
    trusted.clock.advance(60_000);
    await trusted.hit(trusted.sent.pixelUrl, headers, "10.0.0.2");
    expect(await trusted.events()).toEqual([
      {
        ip: "17.58.1.0",
        machine: true,
        source: "apple_privacy",
        reasons: ["Apple Mail Privacy Protection proxy address and user agent"],
      },
    ]);

    const direct = await setup();
    direct.clock.advance(60_000);
    await direct.hit(direct.sent.pixelUrl, headers, "192.0.2.44");
    expect(await direct.events()).toEqual([
      {
        ip: "192.0.2.0",
        machine: true,
        source: "apple_privacy",
        reasons: ["Apple Mail Privacy Protection user agent (a bare Mozilla/5.0)"],
      },
    ]);
  });

  it("applies the host's rules to the full address, which the store then truncates", async () => {
    const rule = addressRangeRule({ cidrs: ["198.51.100.7/32"], reason: "Acme's own link checker" });
    const { sent, hit, events, clock } = await setup({ classificationRules: [rule] });
    clock.advance(3_600_000);
    await hit(sent.links[0]!.trackingUrl, { "user-agent": chrome }, "198.51.100.7");
    await hit(sent.links[0]!.trackingUrl, { "user-agent": chrome }, "198.51.100.8");
    expect(await events()).toEqual([
      { ip: "198.51.100.0", machine: true, source: "security_scanner", reasons: ["Acme's own link checker"] },
      { ip: "198.51.100.0", machine: false, source: "human", reasons: ["no machine signal"] },
    ]);
  });

  it("judges each hit on the message's earlier hits, then revises: a scanner's second link within a second", async () => {
    const { mailpulse, sent, hit, events, clock } = await setup();
    clock.advance(30_000);
    await hit(sent.links[0]!.trackingUrl, { "user-agent": chrome }, "203.0.113.9");
    // At arrival the first click is a person's: nothing points to a machine yet.
    expect((await events())[0]).toMatchObject({ machine: false, source: "human" });
    clock.advance(400);
    await hit(sent.links[1]!.trackingUrl, { "user-agent": chrome }, "203.0.113.9");
    await mailpulse.tracking.revisionsSettled();
    expect(await events()).toEqual([
      {
        ip: "203.0.113.0",
        machine: true,
        source: "security_scanner",
        reasons: [
          "2 different links followed within 0.4 s, all from one address",
          "revised once later hits showed the pattern",
        ],
      },
      {
        ip: "203.0.113.0",
        machine: true,
        source: "security_scanner",
        reasons: ["2 different links followed within 0.4 s, all from one address"],
      },
    ]);
  });

  it("revises earlier verdicts when a later hit reveals a burst, moving the human figures with them", async () => {
    const { mailpulse, organization, sent, hit, events, clock, human } = await setup();
    clock.advance(60_000);
    for (const link of sent.links) {
      await hit(link.trackingUrl, { "user-agent": chrome }, "203.0.113.9");
      clock.advance(1_400);
    }
    await mailpulse.tracking.revisionsSettled();
    const burst = "3 different links followed within 2.8 s, all from one address";
    expect(await events()).toEqual([
      {
        ip: "203.0.113.0",
        machine: true,
        source: "security_scanner",
        reasons: [burst, "revised once later hits showed the pattern"],
      },
      {
        ip: "203.0.113.0",
        machine: true,
        source: "security_scanner",
        reasons: [burst, "revised once later hits showed the pattern"],
      },
      { ip: "203.0.113.0", machine: true, source: "security_scanner", reasons: [burst] },
    ]);
    expect(await human()).toEqual({
      totalOpens: 0,
      totalClicks: 0,
      openRate: 0,
      clickRate: 0,
      noInteraction: 1,
    });
    expect(await mailpulse.contacts.get(organization.id, "b@example.com")).toMatchObject({
      totalClicks: 3,
      humanClicks: 0,
    });
  });
});
