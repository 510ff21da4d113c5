/**
 * The candidates: Fastify and Express apps with MailPulse mounted the way docs/embedding.md and
 * examples/ show, on the configured storage. Nothing is tuned: every tracking option but
 * `acknowledge` keeps its default, so the figures are what a host app gets.
 */
import { mailpulseExpress } from "@mailpulse/adapter-express";
import { mailpulseFastify } from "@mailpulse/adapter-fastify";
import { createMailPulse, type MailProvider, memoryProvider, smtpProvider } from "@mailpulse/core";
import express from "express";
import Fastify from "fastify";
import { type ListeningApp, listenExpress, portOf } from "./bare-app.js";
import type { ServerConfig } from "./config.js";
import { openStorage } from "./open-storage.js";
import { withoutTrackingWrites } from "./without-tracking-writes.js";

/**
 * Starts the MailPulse app of `config` on 127.0.0.1 at an ephemeral port. `close()` stops taking
 * requests, then `mailpulse.stop()` (drains the tracking writer), then closes the storage: once
 * it resolves, every hit the server accepted is in the database.
 */
export async function startMailPulseApp(config: ServerConfig): Promise<ListeningApp> {
  if (!config.storage) throw new Error("a MailPulse server needs a storage");
  const storage = openStorage(config.storage);
  const served = config.skipTrackingWrites ? withoutTrackingWrites(storage) : storage;
  // The memory provider keeps every message; a bench sending for seconds does not mind.
  const mailProvider: MailProvider = config.smtpUrl
    ? smtpProvider({ url: config.smtpUrl })
    : memoryProvider();
  const mailpulse = createMailPulse({
    storage: served,
    baseUrl: "http://127.0.0.1",
    // The bench's SMTP sink is on loopback; nobody outside reads its mail.
    allowPrivateBaseUrl: true,
    mailProvider,
    tracking: config.acknowledge ? { acknowledge: config.acknowledge } : undefined,
  });
  const stop = async () => {
    await mailpulse.stop();
    await storage.close();
  };

  if (config.framework === "fastify") {
    const app = Fastify({ logger: false });
    await app.register(mailpulseFastify, { mailpulse });
    app.addHook("onClose", stop);
    await app.listen({ port: 0, host: "127.0.0.1" });
    return { port: portOf(app.server), close: () => app.close() };
  }
  const app = express();
  app.use(mailpulseExpress(mailpulse));
  return listenExpress(app, stop);
}
