import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMailPulse, type Storage } from "@mailpulse/core";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { createTestClock } from "@mailpulse/testing";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { storageFactories } from "../support/storages.js";

const quiet = { info: () => {}, error: () => {} };
const postgresUrl = process.env.DATABASE_URL;

/** Where the child and the test meet: a storage both processes open by its address. */
interface CrashPlace {
  /** The child's `<storage>` argument. */
  spec: string;
  open(): Storage;
  cleanup(): Promise<void> | void;
}

/** A SQLite file always; a PostgreSQL schema of its own when DATABASE_URL is set. */
const crashStorages: Array<{ name: string; create(): CrashPlace }> = [
  {
    name: "sqlite",
    create() {
      const folder = mkdtempSync(join(tmpdir(), "mailpulse-crash-"));
      const filename = join(folder, "mailpulse.db");
      return {
        spec: `sqlite:${filename}`,
        open: () => sqliteStorage({ filename }),
        cleanup: () => rmSync(folder, { recursive: true, force: true }),
      };
    },
  },
  ...(postgresUrl
    ? [
        {
          name: "postgres",
          create(): CrashPlace {
            const schema = `mailpulse_test_crash_${randomBytes(6).toString("hex")}`;
            return {
              spec: `postgres:${schema}`,
              open: () => postgresStorage({ connectionString: postgresUrl, schema }),
              async cleanup() {
                const client = new pg.Client({ connectionString: postgresUrl });
                await client.connect();
                try {
                  await client.query(`drop schema if exists "${schema}" cascade`);
                } finally {
                  await client.end();
                }
              },
            };
          },
        },
      ]
    : []),
];

/**
 * An SMTP server that takes the whole message, then tells the test and holds its answer until
 * the test says so: the sender is killed in between, as a crash after delivery would do.
 */
async function startHoldingSmtpServer() {
  let received: (() => void) | undefined;
  const delivered = new Promise<void>((resolve) => {
    received = resolve;
  });
  const held: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        held.push(() => callback());
        received?.();
      });
    },
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    delivered,
    close: () =>
      new Promise<void>((resolve) => {
        for (const release of held) release();
        server.close(() => resolve());
      }),
  };
}

describe("crash reconciliation", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  for (const crashStorage of crashStorages) {
    it(`counts and tracks, as unknown, an email whose sender was killed with SIGKILL mid-send (${crashStorage.name})`, async () => {
      const place = crashStorage.create();
      cleanups.push(() => place.cleanup());
      const smtp = await startHoldingSmtpServer();
      cleanups.push(() => smtp.close());

      const setup = place.open();
      await setup.migrate();
      const organization = await createMailPulse({
        storage: setup,
        baseUrl: "http://x.test",
        logger: quiet,
      }).organizations.create({ name: "Acme" });
      await setup.close();

      // A real process, really killed: nothing in it gets to run after the signal.
      const child: ChildProcess = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          "--conditions=source",
          fileURLToPath(new URL("./send-then-die.ts", import.meta.url)),
          place.spec,
          smtp.url,
          organization.id,
          "bob@example.com",
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      let output = "";
      child.stdout?.on("data", (chunk) => {
        output += chunk;
      });
      child.stderr?.on("data", (chunk) => {
        output += chunk;
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on("exit", (_code, signal) => resolve(signal)),
      );
      await Promise.race([
        smtp.delivered,
        exited.then(() => {
          throw new Error(`The child exited before delivering: ${output}`);
        }),
      ]);
      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
      expect(output).not.toContain("sent");

      const storage = place.open();
      cleanups.push(() => storage.close());
      const [left] = await storage.emails.list(organization.id, 10);
      expect(left).toMatchObject({ status: "sending", sentAt: null });
      const clock = createTestClock(new Date(left!.createdAt.getTime() + 15 * 60 * 1000 + 1));
      const mailpulse = createMailPulse({ storage, baseUrl: "http://x.test", clock, logger: quiet });
      cleanups.push(() => mailpulse.stop());
      expect((await mailpulse.stats.global(organization.id)).totalEmails).toBe(0);

      await mailpulse.start();

      const detail = await mailpulse.emails.get(organization.id, left!.id);
      expect(detail).toMatchObject({
        status: "unknown",
        sentAt: left!.createdAt.toISOString(),
        to: ["bob@example.com"],
      });
      expect((await mailpulse.stats.global(organization.id)).totalEmails).toBe(1);
      expect((await mailpulse.contacts.get(organization.id, "bob@example.com")).totalEmails).toBe(1);
      // Its opens count: the pixel of an `unknown` email is recorded.
      await mailpulse.tracking.recordOpen(detail.emailTrackingId, {});
      await mailpulse.stop();
      expect((await mailpulse.emails.get(organization.id, left!.id)).opens).toBe(1);
    }, 30_000);
  }

  for (const storageFactory of storageFactories) {
    it(`leaves younger sending emails alone, and reconciles each stale one once (${storageFactory.name})`, async () => {
      const storage = await storageFactory.create();
      cleanups.push(() => storage.close());
      const clock = createTestClock("2026-03-01T10:00:00.000Z");
      const setup = createMailPulse({ storage, baseUrl: "http://x.test", clock, logger: quiet });
      const organization = await setup.organizations.create({ name: "Acme" });
      const base = {
        organizationId: organization.id,
        campaignId: null,
        origin: "send" as const,
        fromAddress: "a@shop.example",
        sender: "a@shop.example",
        replyTo: null,
        subject: "S",
        metadata: null,
        trackOpens: true,
        trackClicks: true,
        links: [],
      };
      const email = (id: string, minutesAgo: number) => ({
        ...base,
        id,
        trackingId: `tracking-${id}`,
        recipients: [{ kind: "to" as const, address: `${id}@example.com`, display: `${id}@example.com` }],
        createdAt: new Date(clock.now().getTime() - minutesAgo * 60_000),
      });
      await storage.emails.create(email("stale", 20));
      await storage.emails.create(email("young", 5));
      const mailpulse = createMailPulse({ storage, baseUrl: "http://x.test", clock, logger: quiet });
      cleanups.push(() => mailpulse.stop());
      await mailpulse.start();
      expect((await storage.emails.get(organization.id, "stale"))?.status).toBe("unknown");
      expect((await storage.emails.get(organization.id, "young"))?.status).toBe("sending");
      // A second pass (another process starting) changes nothing and counts nothing twice.
      expect(await storage.emails.markStaleSendingUnknown(clock.now())).toBe(1);
      expect(await storage.emails.markStaleSendingUnknown(clock.now())).toBe(0);
      expect((await mailpulse.stats.global(organization.id)).totalEmails).toBe(2);
    });
  }
});
