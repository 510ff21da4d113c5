/**
 * Webhook delivery end to end, against a real HTTPS receiver on loopback (self-signed
 * certificate, trusted through the `ca` option), on SQLite and PostgreSQL: events from the API
 * and the tracking endpoints arrive signed (checked with our own HMAC and with the
 * `standardwebhooks` package), failures are retried on the schedule (an injected clock, no
 * sleeping), and the deliveries API shows every attempt.
 */
import { createHmac } from "node:crypto";
import {
  createMailPulse,
  type MailPulse,
  type Storage,
  smtpProvider,
  verifyWebhookSignature,
} from "@mailpulse/core";
import { createStaticLookup, createTestClock, type TestClock } from "@mailpulse/testing";
import {
  type HttpsTestReceiver,
  type ReceivedRequest,
  type SmtpTestServer,
  startHttpsTestReceiver,
  startSmtpTestServer,
  type TestReceiverAnswer,
} from "@mailpulse/testing/peers";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { storageFactories } from "../support/storages.js";

const quiet = { info: () => {}, error: () => {} };

/** Checks a delivery as a receiver would: the spec's hex header, and Standard Webhooks (package and ours). */
function expectSigned(request: ReceivedRequest, secret: string) {
  const hex = createHmac("sha256", secret).update(request.rawBody, "utf8").digest("hex");
  expect(request.headers["x-webhook-signature"]).toBe(hex);
  const verified = new Webhook(Buffer.from(secret).toString("base64")).verify(request.rawBody, {
    "webhook-id": request.headers["webhook-id"] ?? "",
    "webhook-timestamp": request.headers["webhook-timestamp"] ?? "",
    "webhook-signature": request.headers["webhook-signature"] ?? "",
  });
  expect(verified).toEqual(JSON.parse(request.rawBody));
  expect(() =>
    verifyWebhookSignature({
      rawBody: request.rawBody,
      headers: request.headers,
      secret,
      now: new Date(Number(request.headers["webhook-timestamp"]) * 1000),
    }),
  ).not.toThrow();
  expect(request.headers["webhook-id"]).toBe(JSON.parse(request.rawBody).id);
}

describe.each(storageFactories)("webhook delivery on $name", ({ create }) => {
  let smtp: SmtpTestServer;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
  });
  afterAll(async () => {
    await smtp?.close();
  });

  const opened: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });

  interface Setup {
    storage: Storage;
    mailpulse: MailPulse;
    receiver: HttpsTestReceiver;
    clock: TestClock;
    organizationId: string;
  }

  async function setup(
    respond?: (request: ReceivedRequest, index: number) => TestReceiverAnswer,
    webhookOptions: Parameters<typeof createMailPulse>[0]["webhooks"] = {},
  ): Promise<Setup> {
    const receiver = await startHttpsTestReceiver({ respond });
    opened.push(receiver);
    const storage = await create();
    opened.push(storage);
    // Starts at the real time: the standardwebhooks package checks timestamps against it.
    const clock = createTestClock(new Date());
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "http://mail.test",
      clock,
      logger: quiet,
      mailProvider: smtpProvider({ url: smtp.url }),
      webhooks: { allowPrivateNetworks: true, ca: receiver.ca, ...webhookOptions },
    });
    opened.push({ close: () => mailpulse.stop() });
    const organization = await mailpulse.organizations.create({ name: "Acme" });
    return { storage, mailpulse, receiver, clock, organizationId: organization.id };
  }

  async function sendOne({ mailpulse, organizationId }: Setup) {
    return mailpulse.emails.send(organizationId, {
      from: "news@acme.example",
      to: "ann@example.com",
      subject: "Hello",
      htmlContent: '<p><a href="https://example.com/offer">offer</a></p>',
      campaignId: "Launch",
    });
  }

  it("delivers EMAIL_SENT, EMAIL_OPENED and EMAIL_CLICKED signed, each the same JSON as its event", async () => {
    const context = await setup();
    const { mailpulse, receiver, organizationId } = context;
    const webhook = await mailpulse.webhooks.create(organizationId, {
      url: `${receiver.url}/hooks`,
      events: ["EMAIL_SENT", "EMAIL_OPENED", "EMAIL_CLICKED"],
    });
    const sent = await sendOne(context);
    await mailpulse.tracking.recordOpen(sent.emailTrackingId, { userAgent: "Mail/1", ip: "203.0.113.9" });
    await mailpulse.tracking.resolveClick(sent.links[0]!.trackingId, { userAgent: "Mail/1" });

    expect(await mailpulse.deliverWebhooks()).toBe(3);
    const requests = await receiver.waitFor(3);
    const bodies = requests.map((request) => JSON.parse(request.rawBody));
    expect(bodies.map((body) => body.type).sort()).toEqual(["EMAIL_CLICKED", "EMAIL_OPENED", "EMAIL_SENT"]);
    for (const request of requests) {
      expect(request.path).toBe("/hooks");
      expect(request.headers["content-type"]).toBe("application/json");
      expectSigned(request, webhook.secret);
    }
    const events = await mailpulse.events.list(organizationId);
    expect(bodies.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [...events.data].sort((a, b) => a.id.localeCompare(b.id)),
    );
    const deliveries = await mailpulse.webhooks.listDeliveries(organizationId, webhook.id);
    expect(deliveries.data.map((d) => [d.state, d.attempts, d.lastStatus])).toEqual([
      ["delivered", 1, 200],
      ["delivered", 1, 200],
      ["delivered", 1, 200],
    ]);
    // Nothing is due any more.
    expect(await mailpulse.deliverWebhooks()).toBe(0);
  });

  it("delivers EMAIL_BOUNCED, EMAIL_COMPLAINED and CONTACT_UNSUBSCRIBED signed, once each, only to subscribers", async () => {
    const context = await setup();
    const { mailpulse, receiver, organizationId } = context;
    const lifecycle = await mailpulse.webhooks.create(organizationId, {
      url: `${receiver.url}/lifecycle`,
      events: ["EMAIL_BOUNCED", "EMAIL_COMPLAINED", "CONTACT_UNSUBSCRIBED"],
    });
    await mailpulse.webhooks.create(organizationId, { url: `${receiver.url}/sent`, events: ["EMAIL_SENT"] });
    const sent = await sendOne(context);
    const target = { organizationId, emailId: sent.emailId, recipient: "Ann@Example.com" };
    const bounce = {
      ...target,
      bounceType: "hard" as const,
      status: "5.1.1",
      diagnostic: "smtp; 550 5.1.1 user unknown",
      source: "inbound-smtp" as const,
    };
    // Each report twice, as an MTA retrying would: delivered once.
    for (let n = 0; n < 2; n++) {
      await mailpulse.deliveryFeedback.recordBounce(bounce);
      await mailpulse.deliveryFeedback.recordComplaint({
        ...target,
        feedbackType: "abuse",
        source: "inbound-smtp",
      });
      await mailpulse.deliveryFeedback.recordUnsubscribe({ ...target, source: "one-click" });
    }

    expect(await mailpulse.deliverWebhooks()).toBe(4);
    const requests = await receiver.waitFor(4);
    const lifecycleRequests = requests.filter((request) => request.path === "/lifecycle");
    for (const request of lifecycleRequests) expectSigned(request, lifecycle.secret);
    const bodies = lifecycleRequests.map((request) => JSON.parse(request.rawBody));
    const dataOf = (type: string) => bodies.find((body) => body.type === type)?.data;
    expect(bodies.map((body) => body.type).sort()).toEqual([
      "CONTACT_UNSUBSCRIBED",
      "EMAIL_BOUNCED",
      "EMAIL_COMPLAINED",
    ]);
    expect(dataOf("EMAIL_BOUNCED")).toMatchObject({
      emailId: sent.emailId,
      emailTrackingId: sent.emailTrackingId,
      recipient: "ann@example.com",
      bounceType: "hard",
      status: "5.1.1",
      diagnostic: "smtp; 550 5.1.1 user unknown",
    });
    expect(dataOf("EMAIL_COMPLAINED")).toMatchObject({ recipient: "ann@example.com", feedbackType: "abuse" });
    expect(dataOf("CONTACT_UNSUBSCRIBED")).toMatchObject({
      recipient: "ann@example.com",
      source: "one-click",
    });
    // The body is the event the API lists.
    const listed = await mailpulse.events.list(organizationId, {
      type: "EMAIL_BOUNCED,EMAIL_COMPLAINED,CONTACT_UNSUBSCRIBED",
    });
    expect([...bodies].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [...listed.data].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(requests.filter((request) => request.path === "/sent")).toHaveLength(1);
    expect(await mailpulse.deliverWebhooks()).toBe(0);

    // A test of the lifecycle webhook carries its first event's own fields.
    expect((await mailpulse.webhooks.test(organizationId, lifecycle.id)).success).toBe(true);
    const [, , , , testRequest] = await receiver.waitFor(5);
    expect(JSON.parse(testRequest!.rawBody)).toMatchObject({
      type: "EMAIL_BOUNCED",
      test: true,
      data: { recipient: "recipient@example.com", bounceType: "hard", status: "5.1.1" },
    });
  });

  it("retries a failing receiver on the schedule until it succeeds, logging every attempt", async () => {
    const context = await setup((_request, index) =>
      index < 3 ? { status: 500, body: `down ${index} ${"x".repeat(2000)}` } : { status: 204 },
    );
    const { mailpulse, receiver, clock, organizationId } = context;
    const webhook = await mailpulse.webhooks.create(organizationId, {
      url: receiver.url,
      events: ["EMAIL_SENT"],
    });
    await sendOne(context);

    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await mailpulse.deliverWebhooks()).toBe(1);
      const [delivery] = (await mailpulse.webhooks.listDeliveries(organizationId, webhook.id)).data;
      expect(delivery).toMatchObject({ state: "failed", attempts: attempt, lastStatus: 500 });
      // Not due before its time (5 s, 5 min, 30 min, each +-10%)...
      expect(await mailpulse.deliverWebhooks()).toBe(0);
      const wait = new Date(delivery!.nextAttemptAt!).getTime() - clock.now().getTime();
      const scheduled = [5_000, 300_000, 1_800_000][attempt - 1]!;
      expect(wait).toBeGreaterThanOrEqual(scheduled * 0.9);
      expect(wait).toBeLessThanOrEqual(scheduled * 1.1);
      // ...and due once it is.
      clock.advance(wait);
    }
    expect(await mailpulse.deliverWebhooks()).toBe(1);
    expect(receiver.requests).toHaveLength(4);
    // Every attempt carries the same event id: receivers dedupe by it.
    expect(new Set(receiver.requests.map((request) => request.headers["webhook-id"])).size).toBe(1);
    const [delivery] = (await mailpulse.webhooks.listDeliveries(organizationId, webhook.id)).data;
    expect(delivery).toMatchObject({ state: "delivered", attempts: 4, lastStatus: 204, nextAttemptAt: null });
    const detail = await mailpulse.webhooks.getDelivery(organizationId, webhook.id, delivery!.id);
    expect(detail.attemptLog.map((attempt) => attempt.status)).toEqual([500, 500, 500, 204]);
    // The answer's first KiB is kept, no more.
    expect(Buffer.byteLength(detail.attemptLog[0]!.responseExcerpt ?? "")).toBe(1024);
    expect(detail.attemptLog[0]!.responseExcerpt).toMatch(/^down 0 x+$/);
  });

  it("honours Retry-After, and a 410 disables the webhook at once", async () => {
    const context = await setup((_request, index) =>
      index === 0 ? { status: 503, headers: { "retry-after": "120" } } : { status: 410 },
    );
    const { mailpulse, receiver, clock, organizationId } = context;
    const webhook = await mailpulse.webhooks.create(organizationId, {
      url: receiver.url,
      events: ["EMAIL_SENT"],
    });
    await sendOne(context);
    await mailpulse.deliverWebhooks();
    const [delivery] = (await mailpulse.webhooks.listDeliveries(organizationId, webhook.id)).data;
    expect(new Date(delivery!.nextAttemptAt!).getTime() - clock.now().getTime()).toBe(120_000);
    clock.advance(120_000);
    await mailpulse.deliverWebhooks();
    expect((await mailpulse.webhooks.listDeliveries(organizationId, webhook.id)).data[0]).toMatchObject({
      state: "dead",
      lastStatus: 410,
    });
    expect((await mailpulse.webhooks.list(organizationId))[0]).toMatchObject({ isActive: false });
    expect(receiver.requests).toHaveLength(2);
    // A retried dead delivery waits until the webhook is active again.
    await mailpulse.webhooks.retryDelivery(organizationId, webhook.id, delivery!.id);
    expect(await mailpulse.deliverWebhooks()).toBe(0);
  });

  it("gives up after the last attempt, and deactivates a webhook failing for 5 days", async () => {
    const day = 24 * 60 * 60 * 1000;
    const context = await setup(() => ({ status: 500 }), { retryDelaysMs: [3 * day, 3 * day] });
    const { mailpulse, clock, organizationId } = context;
    const webhook = await mailpulse.webhooks.create(organizationId, {
      url: context.receiver.url,
      events: ["EMAIL_SENT"],
    });
    await sendOne(context);
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await mailpulse.deliverWebhooks()).toBe(1);
      clock.advance(3.5 * day);
    }
    const [delivery] = (await mailpulse.webhooks.listDeliveries(organizationId, webhook.id)).data;
    expect(delivery).toMatchObject({ state: "dead", attempts: 3, nextAttemptAt: null });
    expect((await mailpulse.webhooks.list(organizationId))[0]).toMatchObject({ isActive: false });
    // Retried by hand once the receiver is back: a new series of attempts.
    await mailpulse.webhooks.update(organizationId, webhook.id, { isActive: true });
    expect(await mailpulse.webhooks.retryDelivery(organizationId, webhook.id, delivery!.id)).toMatchObject({
      state: "pending",
      attempts: 0,
    });
  });

  it("counts a timeout as a failed attempt", async () => {
    const context = await setup(() => ({ status: 200, delayMs: 2000 }), { timeoutMs: 200 });
    const { mailpulse, organizationId } = context;
    const webhook = await mailpulse.webhooks.create(organizationId, {
      url: context.receiver.url,
      events: ["EMAIL_SENT"],
    });
    await sendOne(context);
    await mailpulse.deliverWebhooks();
    const [delivery] = (await mailpulse.webhooks.listDeliveries(organizationId, webhook.id)).data;
    expect(delivery).toMatchObject({ state: "failed", attempts: 1, lastStatus: null });
    expect(delivery!.lastError).toMatch(/timeout/);
  });

  it("refuses at delivery an address that DNS rebinding made private", async () => {
    const answers = new Map([["hooks.example.com", "93.184.216.34"]]);
    const context = await setup(undefined, {
      allowPrivateNetworks: false,
      lookup: createStaticLookup(answers),
    });
    const { mailpulse, receiver, organizationId } = context;
    const webhook = await mailpulse.webhooks.create(organizationId, {
      url: `https://hooks.example.com:${receiver.port}/in`,
      events: ["EMAIL_SENT"],
    });
    answers.set("hooks.example.com", "127.0.0.1");
    await sendOne(context);
    await mailpulse.deliverWebhooks();
    const [delivery] = (await mailpulse.webhooks.listDeliveries(organizationId, webhook.id)).data;
    expect(delivery).toMatchObject({ state: "failed", lastStatus: null });
    expect(delivery!.lastError).toMatch(/127\.0\.0\.1/);
    expect(receiver.requests).toEqual([]);
  });

  it("signs with both secrets during a rotation, and sends a test event on demand", async () => {
    const context = await setup();
    const { mailpulse, receiver, organizationId } = context;
    const webhook = await mailpulse.webhooks.create(organizationId, {
      url: receiver.url,
      events: ["EMAIL_OPENED"],
    });
    const rotated = await mailpulse.webhooks.rotateSecret(organizationId, webhook.id);
    const result = await mailpulse.webhooks.test(organizationId, webhook.id);
    expect(result).toMatchObject({ success: true, status: 200, error: null });
    const [request] = await receiver.waitFor(1);
    expect(JSON.parse(request!.rawBody)).toMatchObject({ type: "EMAIL_OPENED", test: true });
    expect(request!.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expectSigned(request!, rotated.secret);
    // A receiver still holding the old secret verifies too.
    expect(() =>
      new Webhook(Buffer.from(webhook.secret).toString("base64")).verify(request!.rawBody, {
        "webhook-id": request!.headers["webhook-id"] ?? "",
        "webhook-timestamp": request!.headers["webhook-timestamp"] ?? "",
        "webhook-signature": request!.headers["webhook-signature"] ?? "",
      }),
    ).not.toThrow();
    // After 24 hours, the new secret alone.
    context.clock.advance(24 * 60 * 60 * 1000 + 1);
    await mailpulse.webhooks.test(organizationId, webhook.id);
    const [, later] = await receiver.waitFor(2);
    expect(later!.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
  });

  it("purges delivered deliveries past the retention period once started", async () => {
    const context = await setup(undefined, { retentionDays: 30 });
    const { mailpulse, clock, organizationId } = context;
    const webhook = await mailpulse.webhooks.create(organizationId, {
      url: context.receiver.url,
      events: ["EMAIL_SENT"],
    });
    await sendOne(context);
    await mailpulse.deliverWebhooks();
    expect((await mailpulse.webhooks.listDeliveries(organizationId, webhook.id)).data).toHaveLength(1);
    clock.advance(31 * 24 * 60 * 60 * 1000);
    // The worker purges on its first run, then hourly.
    await mailpulse.start();
    const deadline = Date.now() + 5000;
    while ((await mailpulse.webhooks.listDeliveries(organizationId, webhook.id)).data.length > 0) {
      if (Date.now() > deadline) throw new Error("the delivered delivery was not purged");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it("pages 1,000 events with no gap and no repeat", async () => {
    const context = await setup();
    const { mailpulse, organizationId } = context;
    const sent = await sendOne(context);
    await Promise.all(
      Array.from({ length: 999 }, (_, n) =>
        mailpulse.tracking.recordOpen(sent.emailTrackingId, { userAgent: `ua-${n}` }),
      ),
    );
    const ids: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await mailpulse.events.list(organizationId, { limit: 100, after });
      ids.push(...page.data.map((event) => event.id));
      if (!page.nextCursor) break;
      after = page.nextCursor;
    }
    expect(ids).toHaveLength(1000);
    expect(new Set(ids).size).toBe(1000);
  });
});
