import { mailpulseFastify, mailpulseFastifyServerOptions } from "@mailpulse/adapter-fastify";
import { createMailPulse, type MailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";

/** Options of {@link createHostApp}. */
export interface HostAppOptions {
  /** SQLite database file; created with its folders when missing. Default `:memory:`. */
  databaseFile?: string;
  /** Where MailPulse is registered: `"/mail"` serves `/mail/api/...`. Default: the root. */
  prefix?: string;
  /** Public address of the API's mount point, used in tracking URLs. Default `http://localhost:3001`. */
  baseUrl?: string;
  /** Fastify's `logger` option; MailPulse logs through the resulting `app.log`. Default `true`. */
  logger?: FastifyServerOptions["logger"];
}

/**
 * A Fastify app with routes of its own (`GET /health`, `POST /signup`) and the MailPulse plugin
 * registered beside them. `close()` closes the app, which stops MailPulse and closes the database.
 */
export async function createHostApp(
  options: HostAppOptions = {},
): Promise<{ app: FastifyInstance; mailpulse: MailPulse; close: () => Promise<void> }> {
  let instance: MailPulse | undefined;
  const app = Fastify({
    logger: options.logger ?? true,
    // MailPulse answers URLs Fastify cannot decode under its mount point (`%FF`), in its JSON
    // shape. A function, because the instance is made after the app, to log through `app.log`.
    ...mailpulseFastifyServerOptions(() => instance as MailPulse, { prefix: options.prefix }),
  });
  const storage = sqliteStorage({ filename: options.databaseFile ?? ":memory:" });
  await storage.migrate();
  const mailpulse = createMailPulse({
    storage,
    baseUrl: options.baseUrl ?? "http://localhost:3001",
    // Fastify's pino logger: MailPulse's lines come out as JSON with their fields (emailId, to, err).
    logger: app.log,
  });
  instance = mailpulse;
  // Background work that runs on its own (the daily re-check of verified sending domains).
  await mailpulse.start();

  app.get("/health", async () => ({ ok: true }));
  app.post("/signup", async (request, reply) => reply.code(201).send({ received: request.body }));
  // A plain plugin: its body handling stays inside its own scope, the routes above keep Fastify's.
  await app.register(mailpulseFastify, { mailpulse, prefix: options.prefix });
  app.addHook("onClose", async () => {
    await mailpulse.stop();
    await storage.close();
  });

  return { app, mailpulse, close: () => app.close() };
}
