/**
 * The standalone MailPulse server: Fastify + the MailPulse plugin on SQLite (or PostgreSQL when
 * DATABASE_URL is set). `npm start` at the repository root runs this file.
 */
import type { MailPulse, Storage } from "@mailpulse/core";
import { ensureDefaultOrganization } from "./bootstrap.js";
import { createInstance } from "./create-instance.js";
import { createServer } from "./create-server.js";
import { openStorage } from "./open-storage.js";
import { sendingLine } from "./sending-line.js";
import { readSettings, type Settings, SettingsError } from "./settings.js";

async function main(): Promise<void> {
  const settings = readSettings();
  const { storage, description } = await openStorage(settings);
  const mailpulse = createInstance(settings, storage);
  try {
    await serve(settings, storage, description, mailpulse);
  } catch (error) {
    // A port already in use, say: close the database before exiting, so a SQLite file is left
    // checkpointed (no -wal beside it) and a PostgreSQL pool does not hold the exit up.
    await mailpulse.stop().catch(() => undefined);
    await storage.close().catch(() => undefined);
    throw error;
  }
}

/** Everything after the storage is open: the default organization, the server, background jobs. */
async function serve(
  settings: Settings,
  storage: Storage,
  description: string,
  mailpulse: MailPulse,
): Promise<void> {
  const created = await ensureDefaultOrganization(mailpulse);
  if (created) {
    console.log(
      [
        "Created organization Default. Its API key is shown once; keep it:",
        "",
        `  ${created.apiKey}`,
        "",
        `More keys: npm run mailpulse -- key create ${created.organizationId}`,
      ].join("\n"),
    );
  }

  const app = await createServer(settings, mailpulse);
  await app.listen({ port: settings.port, host: settings.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : settings.port;
  console.log(`MailPulse listening on http://${settings.host}:${port} (storage: ${description})`);
  console.log(sendingLine(settings));
  if (settings.inboundSmtpPort !== undefined) {
    // Closed by mailpulse.stop() below, after the messages being recorded are stored.
    const receiver = await mailpulse.inbound.listen({
      port: settings.inboundSmtpPort,
      host: settings.inboundSmtpHost,
    });
    console.log(
      `Inbound SMTP listening on ${settings.inboundSmtpHost}:${receiver.port} (bounces, complaints and unsubscribes for send.${settings.platformDomain} and send.<each verified sending domain>)`,
    );
  }
  // Background work: periodic DNS re-checks of verified sending domains.
  await mailpulse.start();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: finishing in-flight requests, then stopping`);
    // close() stops accepting connections and waits for in-flight requests to finish.
    await app.close();
    await mailpulse.stop();
    await storage.close();
    console.log("MailPulse stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  if (error instanceof SettingsError) {
    console.error(`MailPulse cannot start: ${error.message}`);
  } else {
    console.error("MailPulse cannot start:", error);
  }
  process.exit(1);
});
