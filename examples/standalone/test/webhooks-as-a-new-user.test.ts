import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type HttpsTestReceiver,
  type SmtpTestServer,
  startHttpsTestReceiver,
  startSmtpTestServer,
} from "@mailpulse/testing/peers";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StandaloneServer, startStandalone } from "./support/start-standalone.js";

/**
 * The webhooks issue's "done when", as a new user: `npm start` (allowed to reach a receiver on
 * loopback, whose self-signed certificate it trusts through NODE_EXTRA_CA_CERTS), a webhook
 * subscribed over HTTP, three deliveries that verify with the `standardwebhooks` package, a
 * receiver down for a while that loses nothing, every attempt in the deliveries list, and the
 * catch-up through `GET /api/events`. Real time: the first retry comes about 5 s after a failure.
 */
describe("the standalone server: webhooks as a new user", () => {
  const folder = mkdtempSync(join(tmpdir(), "mailpulse-webhooks-"));
  let smtp: SmtpTestServer;
  let receiver: HttpsTestReceiver;
  let server: StandaloneServer;
  let baseUrl: string;
  let apiKey: string;

  beforeAll(async () => {
    [smtp, receiver] = await Promise.all([startSmtpTestServer(), startHttpsTestReceiver()]);
    const caFile = join(folder, "receiver-ca.pem");
    writeFileSync(caFile, receiver.ca);
    server = await startStandalone({
      MAILPULSE_DATABASE: join(folder, "mailpulse.db"),
      MAILPULSE_SMTP_URL: smtp.url,
      // The SMTP peer is on loopback, and so is every reader of its mail.
      MAILPULSE_ALLOW_PRIVATE_BASE_URL: "true",
      MAILPULSE_WEBHOOK_ALLOW_PRIVATE: "true",
      NODE_EXTRA_CA_CERTS: caFile,
    });
    ({ baseUrl, apiKey } = server);
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([smtp?.close(), receiver?.close()]);
    rmSync(folder, { recursive: true, force: true });
  });

  // biome-ignore lint/suspicious/noExplicitAny: loosely typed JSON answers.
  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { "x-api-key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  }

  async function send(subject: string) {
    const sent = await call("POST", "/api/send", {
      from: "news@example.com",
      to: "ann@example.com",
      subject,
      htmlContent: '<p><a href="https://example.com/offer">offer</a></p>',
    });
    expect(sent.status).toBe(200);
    return sent.json;
  }

  /** Polls until `check` holds (the worker runs in the server's own time). */
  async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (check(value)) return value;
      if (Date.now() > deadline) throw new Error(`still not there: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("delivers signed events, survives a receiver outage, and lets it catch up", async () => {
    const created = await call("POST", "/api/webhooks", {
      url: `${receiver.url}/hooks`,
      events: ["EMAIL_SENT", "EMAIL_OPENED", "EMAIL_CLICKED"],
    });
    expect(created.status).toBe(201);
    const { id: webhookId, secret } = created.json;
    const verifier = new Webhook(Buffer.from(secret).toString("base64"));

    const sent = await send("First");
    // The server listens on an ephemeral port its base URL cannot know: reach the paths directly.
    const onServer = (url: string) => new URL(new URL(url).pathname, baseUrl);
    await fetch(onServer(sent.pixelUrl));
    await fetch(onServer(sent.links[0].trackingUrl), { redirect: "manual" });
    const delivered = await receiver.waitFor(3, 15_000);
    const events = delivered.map((request) =>
      verifier.verify(request.rawBody, {
        "webhook-id": request.headers["webhook-id"] ?? "",
        "webhook-timestamp": request.headers["webhook-timestamp"] ?? "",
        "webhook-signature": request.headers["webhook-signature"] ?? "",
      }),
    ) as Array<{ id: string; type: string }>;
    expect(events.map((event) => event.type).sort()).toEqual(["EMAIL_CLICKED", "EMAIL_OPENED", "EMAIL_SENT"]);
    const lastSeen = [...events].sort((a, b) => Number(a.id.slice(4)) - Number(b.id.slice(4))).at(-1)!.id;

    type Page = { data: Array<{ id: string; state: string; attempts: number; lastError: string | null }> };
    const deliveries = async () => (await call("GET", `/api/webhooks/${webhookId}/deliveries`)).json as Page;
    // Recorded as delivered once the answers are in (closing the receiver earlier would cut one).
    await eventually(
      deliveries,
      (page) => page.data.length === 3 && page.data.every((d) => d.state === "delivered"),
    );

    // The receiver goes down; an email sent meanwhile fails to deliver, and is kept.
    const port = receiver.port;
    await receiver.close();
    await send("During the outage");
    const failed = await eventually(deliveries, (page) => page.data[0]?.state === "failed");
    expect(failed.data[0]).toMatchObject({ attempts: 1 });
    expect(failed.data[0]?.lastError).toMatch(/ECONNREFUSED/);

    // It catches up through the events API, from the last event it had...
    const missed = await call("GET", `/api/events?after=${lastSeen}`);
    expect(missed.json.data.map((event: { type: string }) => event.type)).toEqual(["EMAIL_SENT"]);
    expect(missed.json.data[0].data.subject).toBe("During the outage");

    // ...and, back up on the same port, gets the retry (about 5 s later).
    receiver = await startHttpsTestReceiver({ port });
    const [retried] = await receiver.waitFor(1, 15_000);
    expect(JSON.parse(retried!.rawBody).id).toBe(missed.json.data[0].id);
    const deliveryId = failed.data[0]!.id;
    const detail = await eventually(
      async () => (await call("GET", `/api/webhooks/${webhookId}/deliveries/${deliveryId}`)).json,
      (delivery) => delivery.state === "delivered",
    );
    expect(detail.attemptLog.map((attempt: { status: number | null }) => attempt.status)).toEqual([
      null,
      200,
    ]);
  }, 60_000);
});
