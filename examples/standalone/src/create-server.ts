import { mailpulseFastify, mailpulseFastifyServerOptions } from "@mailpulse/adapter-fastify";
import type { MailPulse } from "@mailpulse/core";
import Fastify, { type FastifyInstance } from "fastify";
import type { Settings } from "./settings.js";

/**
 * The standalone server's Fastify app, not yet listening: the MailPulse plugin at `/api`, with
 * MailPulse answering what Fastify would refuse first (`mailpulseFastifyServerOptions`).
 *
 * Timeouts: Fastify disables Node's request timeout (`requestTimeout: 0`), so a client dripping
 * its body one byte every few seconds held a connection for as long as it liked. Here the whole
 * request must arrive within `requestTimeoutMs` and its head within `headersTimeoutMs` (Node
 * answers 408 and closes); Node checks them every second rather than its default 30.
 */
export async function createServer(
  settings: Pick<Settings, "requestTimeoutMs" | "headersTimeoutMs">,
  mailpulse: MailPulse,
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    forceCloseConnections: "idle",
    requestTimeout: settings.requestTimeoutMs,
    http: { headersTimeout: settings.headersTimeoutMs, connectionsCheckingInterval: 1000 },
    ...mailpulseFastifyServerOptions(mailpulse),
  });
  await app.register(mailpulseFastify, { mailpulse });
  return app;
}
