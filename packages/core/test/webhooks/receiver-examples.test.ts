import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { testReceiverCertificate, testReceiverPrivateKey } from "@mailpulse/testing/peers";
import express from "express";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhookSignature, WebhookVerificationError } from "../../src/index.js";
import { createWebhookTransport } from "../../src/webhooks/https-delivery.js";
import { signDelivery } from "../../src/webhooks/sign-delivery.js";

// The receivers of docs/webhooks.md, served over HTTPS and fed by the real transport:
// if the documented code stops verifying our deliveries, this fails.

const secret = "receiver_example_secret_32_chars";
const tls = { cert: testReceiverCertificate, key: testReceiverPrivateKey };

function expressReceiver(received: unknown[]) {
  const app = express();
  app.post("/webhooks/mailpulse", express.raw({ type: "application/json" }), (req, res) => {
    try {
      verifyWebhookSignature({ rawBody: req.body, headers: req.headers, secret });
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        res.status(400).json({ error: error.message });
        return;
      }
      throw error;
    }
    received.push(JSON.parse(req.body.toString("utf8")));
    res.sendStatus(204);
  });
  return app;
}

function fastifyReceiver(received: unknown[]): FastifyInstance {
  const app = Fastify({ https: tls });
  app.register(async (hooks) => {
    // In this plugin only: keep the body as a Buffer, exactly as it arrived.
    hooks.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => {
      done(null, body);
    });
    hooks.post("/webhooks/mailpulse", async (request, reply) => {
      const rawBody = request.body as Buffer;
      try {
        verifyWebhookSignature({ rawBody, headers: request.headers, secret });
      } catch (error) {
        if (error instanceof WebhookVerificationError) return reply.code(400).send({ error: error.message });
        throw error;
      }
      received.push(JSON.parse(rawBody.toString("utf8")));
      return reply.code(204).send();
    });
  });
  return app;
}

describe.each(["express", "fastify"] as const)("the documented %s receiver", (kind) => {
  const received: unknown[] = [];
  let url = "";
  let close: () => Promise<void> = async () => {};
  const transport = createWebhookTransport({ allowPrivateNetworks: true, ca: testReceiverCertificate });

  beforeAll(async () => {
    if (kind === "express") {
      const server: Server = createServer(tls, expressReceiver(received));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/mailpulse`;
      close = () => new Promise((resolve) => server.close(() => resolve()));
    } else {
      const app = fastifyReceiver(received);
      url = `${await app.listen({ port: 0, host: "127.0.0.1" })}/webhooks/mailpulse`;
      close = () => app.close();
    }
  });

  afterAll(async () => {
    transport.close();
    await close();
  });

  const event = { type: "EMAIL_CLICKED", data: { link: "https://example.com/ä?q=1" } };
  // Spacing a JSON parser would not reproduce: only the raw bytes verify.
  const body = `{ "type": "EMAIL_CLICKED",  "data": {"link":"https://example.com/\\u00e4?q=1"} }`;

  it("accepts a signed delivery", async () => {
    const headers = signDelivery({ eventId: "evt_7", timestamp: new Date(), body, secrets: [secret] });
    const outcome = await transport.post({ url, body, headers });
    expect(outcome).toMatchObject({ ok: true, status: 204 });
    expect(received.at(-1)).toEqual(event);
  });

  it("answers 400 with the reason to a delivery signed with another secret", async () => {
    const headers = signDelivery({
      eventId: "evt_8",
      timestamp: new Date(),
      body,
      secrets: ["not the secret"],
    });
    const outcome = await transport.post({ url, body, headers });
    expect(outcome.status).toBe(400);
    expect(JSON.parse(outcome.responseExcerpt)).toEqual({
      error: "No matching signature: the body was modified, or it was signed with another secret",
    });
  });

  it("answers 400 to a replayed delivery", async () => {
    const anHourAgo = new Date(Date.now() - 3_600_000);
    const headers = signDelivery({ eventId: "evt_9", timestamp: anHourAgo, body, secrets: [secret] });
    const outcome = await transport.post({ url, body, headers });
    expect(outcome.status).toBe(400);
    expect(outcome.responseExcerpt).toContain("Timestamp too old");
  });
});
