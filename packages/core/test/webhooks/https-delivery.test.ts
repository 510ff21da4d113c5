import { createHmac, timingSafeEqual } from "node:crypto";
import type { LookupFunction } from "node:net";
import {
  type HttpsTestReceiver,
  type HttpsTestReceiverOptions,
  startHttpsTestReceiver,
} from "@mailpulse/testing/peers";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import {
  createWebhookTransport,
  type WebhookTransport,
  type WebhookTransportOptions,
} from "../../src/webhooks/https-delivery.js";
import { signDelivery } from "../../src/webhooks/sign-delivery.js";
import { verifyWebhookSignature } from "../../src/webhooks/verify-webhook-signature.js";

const secret = "s3cr3t_for_the_https_receiver_32";
const previousSecret = "the_previous_secret_of_this_hook";

const opened: Array<HttpsTestReceiver | WebhookTransport> = [];

async function receiver(options?: HttpsTestReceiverOptions): Promise<HttpsTestReceiver> {
  const started = await startHttpsTestReceiver(options);
  opened.push(started);
  return started;
}

function transport(options: Partial<WebhookTransportOptions> & { ca: string }): WebhookTransport {
  const created = createWebhookTransport({ allowPrivateNetworks: true, ...options });
  opened.push(created);
  return created;
}

afterEach(async () => {
  for (const resource of opened.splice(0)) await resource.close();
});

function delivery(url: string, body = JSON.stringify({ type: "EMAIL_SENT", data: { subject: "Grüße" } })) {
  return {
    url,
    body,
    headers: signDelivery({ eventId: "evt_1", timestamp: new Date(), body, secrets: [secret] }),
  };
}

/** A resolver that answers 127.0.0.1 for every name, as a rebinding DNS server would on its second answer. */
const rebindToLoopback: LookupFunction = (_hostname, options, callback) => {
  if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
  else callback(null, "127.0.0.1", 4);
};

describe("createWebhookTransport over real HTTPS", () => {
  it("delivers a signed request that the receiver verifies with its own HMAC and with standardwebhooks", async () => {
    const peer = await receiver({ respond: () => ({ status: 204 }) });
    const body = JSON.stringify({ type: "EMAIL_OPENED", data: { emailId: "em_1", note: "zoë 🎉" } });
    const headers = signDelivery({
      eventId: "evt_42",
      timestamp: new Date(),
      body,
      secrets: [secret, previousSecret],
    });
    const outcome = await transport({ ca: peer.ca }).post({
      url: `${peer.url}/hooks/mailpulse?x=1`,
      body,
      headers,
    });

    expect(outcome).toMatchObject({
      ok: true,
      status: 204,
      responseExcerpt: "",
      retryAfterMs: null,
      error: null,
    });
    const [received] = await peer.waitFor(1);
    expect(received!.method).toBe("POST");
    expect(received!.path).toBe("/hooks/mailpulse?x=1");
    expect(received!.rawBody).toBe(body);
    expect(received!.headers["content-type"]).toBe("application/json");
    expect(received!.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(received!.headers["user-agent"]).toBe("MailPulse-Webhooks/1");
    expect(received!.headers["x-webhook-id"]).toBe("evt_42");

    const hex = Buffer.from(createHmac("sha256", secret).update(received!.rawBody).digest("hex"));
    const given = Buffer.from(received!.headers["x-webhook-signature"]!);
    expect(given.length === hex.length && timingSafeEqual(given, hex)).toBe(true);
    for (const key of [secret, previousSecret]) {
      const webhook = new Webhook(Buffer.from(key).toString("base64"));
      expect(webhook.verify(received!.rawBody, received!.headers)).toEqual(JSON.parse(body));
      expect(() =>
        verifyWebhookSignature({ rawBody: received!.rawBody, headers: received!.headers, secret: key }),
      ).not.toThrow();
    }
  });

  it("reports a 500 with the first KiB of its body, cut on a character boundary", async () => {
    // 1023 ASCII bytes then a 2-byte "é": the KiB limit falls inside the character, which is dropped.
    const answer = `${"x".repeat(1023)}é${"y".repeat(3000)}`;
    const peer = await receiver({ respond: () => ({ status: 500, body: answer }) });
    const outcome = await transport({ ca: peer.ca }).post(delivery(peer.url));
    expect(outcome).toMatchObject({ ok: false, status: 500, error: null, retryAfterMs: null });
    expect(outcome.responseExcerpt).toBe("x".repeat(1023));
  });

  it("keeps a whole body shorter than a KiB", async () => {
    const peer = await receiver({ respond: () => ({ status: 400, body: '{"error":"unknown event"}' }) });
    const outcome = await transport({ ca: peer.ca }).post(delivery(peer.url));
    expect(outcome).toMatchObject({ ok: false, status: 400, responseExcerpt: '{"error":"unknown event"}' });
  });

  it("reads no more of a huge body than it needs, and drops the connection", async () => {
    const huge = Buffer.alloc(32 * 1024 * 1024, "z");
    const peer = await receiver({ respond: () => ({ status: 200, body: huge }) });
    const outcome = await transport({ ca: peer.ca }).post(delivery(peer.url));
    expect(outcome).toMatchObject({ ok: true, status: 200, error: null });
    expect(outcome.responseExcerpt).toBe("z".repeat(1024));
    expect(await peer.requests[0]!.answerFinished).toBe(false);
  });

  it("does not follow a redirect: the 3xx is the outcome", async () => {
    const peer = await receiver({
      respond: (_request, index) =>
        index === 0
          ? { status: 302, headers: { location: "https://127.0.0.1:1/elsewhere" } }
          : { status: 200 },
    });
    const outcome = await transport({ ca: peer.ca }).post(delivery(peer.url));
    expect(outcome).toMatchObject({
      ok: false,
      status: 302,
      error: "redirect to https://127.0.0.1:1/elsewhere not followed",
    });
    expect(peer.requests).toHaveLength(1);
  });

  it("reads Retry-After in seconds and as an HTTP date", async () => {
    const peer = await receiver({
      respond: (_request, index) =>
        index === 0
          ? { status: 429, headers: { "retry-after": "120" } }
          : { status: 503, headers: { "retry-after": "Mon, 23 Nov 2026 14:00:00 GMT" } },
    });
    const client = transport({ ca: peer.ca, now: () => Date.parse("2026-11-23T13:59:15Z") });
    expect(await client.post(delivery(peer.url))).toMatchObject({
      ok: false,
      status: 429,
      retryAfterMs: 120_000,
    });
    expect(await client.post(delivery(peer.url))).toMatchObject({
      ok: false,
      status: 503,
      retryAfterMs: 45_000,
    });
  });

  it("gives up when the whole attempt exceeds the timeout", async () => {
    const peer = await receiver({ respond: () => ({ status: 200, delayMs: 2_000 }) });
    const outcome = await transport({ ca: peer.ca, timeoutMs: 200 }).post(delivery(peer.url));
    expect(outcome).toMatchObject({ ok: false, status: null, error: "timeout after 200 ms" });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(199);
    expect(outcome.durationMs).toBeLessThan(2_000);
  });

  it("keeps the status of an answer whose body is still missing when time is up", async () => {
    const peer = await receiver({ respond: () => ({ status: 202, body: "accepted", bodyDelayMs: 2_000 }) });
    const outcome = await transport({ ca: peer.ca, timeoutMs: 200 }).post(delivery(peer.url));
    expect(outcome).toMatchObject({ ok: true, status: 202, responseExcerpt: "", error: null });
    expect(outcome.durationMs).toBeLessThan(2_000);
  });

  it("reports a refused connection", async () => {
    const peer = await receiver();
    const closedUrl = peer.url;
    await peer.close();
    const outcome = await transport({ ca: peer.ca }).post(delivery(closedUrl));
    expect(outcome).toMatchObject({ ok: false, status: null, responseExcerpt: "" });
    expect(outcome.error).toBe(`connect ECONNREFUSED 127.0.0.1:${peer.port}`);
  });

  it("refuses a certificate it does not trust", async () => {
    const peer = await receiver();
    const untrusting = createWebhookTransport({ allowPrivateNetworks: true });
    opened.push(untrusting);
    const outcome = await untrusting.post(delivery(peer.url));
    expect(outcome).toMatchObject({ ok: false, status: null });
    expect(outcome.error).toMatch(/self[- ]signed certificate/);
    expect(peer.requests).toHaveLength(0);
  });

  it("blocks at connect time a name that resolves to loopback (DNS rebinding)", async () => {
    const peer = await receiver();
    const guarded = transport({ ca: peer.ca, allowPrivateNetworks: false, lookup: rebindToLoopback });
    const outcome = await guarded.post(delivery(`https://rebind.mailpulse.test:${peer.port}/hook`));
    expect(outcome).toMatchObject({ ok: false, status: null, error: "blocked address 127.0.0.1 (loopback)" });
    expect(peer.requests).toHaveLength(0);
  });

  it("lets the same name through when private networks are allowed", async () => {
    const peer = await receiver();
    const open = transport({ ca: peer.ca, allowPrivateNetworks: true, lookup: rebindToLoopback });
    const outcome = await open.post(delivery(`https://rebind.mailpulse.test:${peer.port}/hook`));
    expect(outcome).toMatchObject({ ok: true, status: 200, error: null });
    expect((await peer.waitFor(1))[0]!.headers.host).toBe(`rebind.mailpulse.test:${peer.port}`);
  });

  it.each([
    ["https://127.0.0.1:PORT/", "blocked address 127.0.0.1 (loopback)"],
    ["https://2130706433:PORT/", "blocked address 127.0.0.1 (loopback)"],
    ["https://[::ffff:127.0.0.1]:PORT/", "blocked address ::ffff:7f00:1 (loopback)"],
    ["https://[::1]:PORT/", "blocked address ::1 (loopback)"],
  ])("blocks the IP-literal host of %s before connecting", async (url, error) => {
    const peer = await receiver();
    const guarded = transport({ ca: peer.ca, allowPrivateNetworks: false });
    const outcome = await guarded.post(delivery(url.replace("PORT", String(peer.port))));
    expect(outcome).toMatchObject({ ok: false, status: null, error });
    expect(peer.requests).toHaveLength(0);
  });

  it("answers an unusable URL with an outcome instead of throwing", async () => {
    const client = createWebhookTransport({ allowPrivateNetworks: false });
    opened.push(client);
    expect(await client.post(delivery("not a url"))).toMatchObject({
      ok: false,
      status: null,
      error: "url must be an absolute https:// URL",
    });
    expect(await client.post(delivery("http://93.184.215.14/"))).toMatchObject({
      ok: false,
      status: null,
      error: "url must use https://, not http://",
    });
    expect(await client.post(delivery("https://user:pw@93.184.215.14/"))).toMatchObject({
      error: "url must not contain a user name or password; deliveries are signed instead",
    });
  });

  it("answers a header value it cannot send with an outcome instead of throwing", async () => {
    const peer = await receiver();
    const request = delivery(peer.url);
    const outcome = await transport({ ca: peer.ca }).post({
      ...request,
      headers: { ...request.headers, "x-broken": "line\nbreak" },
    });
    expect(outcome).toMatchObject({ ok: false, status: null });
    expect(outcome.error).toMatch(/x-broken/);
    expect(peer.requests).toHaveLength(0);
  });

  it("reuses its connection for the next attempt to the same receiver", async () => {
    const peer = await receiver();
    const client = transport({ ca: peer.ca });
    await client.post(delivery(peer.url));
    await client.post(delivery(peer.url));
    const requests = await peer.waitFor(2);
    expect(requests[1]!.remotePort).toBe(requests[0]!.remotePort);
  });
});
