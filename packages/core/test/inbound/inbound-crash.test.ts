import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMailPulse, type Storage } from "@mailpulse/core";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createRecipientToken } from "../../src/services/feedback/recipient-token.js";
import { returnedFixture } from "./returned-fixtures.js";
import { connectSmtp, type SmtpReply } from "./smtp-client.js";

const quiet = { info: () => {}, error: () => {} };
const signingSecret = "a signing secret of at least thirty-two characters";
const emailCount = 60;
const connections = 4;

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
    name: "SQLite file",
    create() {
      const folder = mkdtempSync(join(tmpdir(), "mailpulse-inbound-crash-"));
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
          name: "PostgreSQL",
          create(): CrashPlace {
            const schema = `mailpulse_test_inbound_crash_${randomBytes(6).toString("hex")}`;
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

describe("inbound receiver killed with SIGKILL", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  for (const crashStorage of crashStorages)
    it(`loses no bounce it answered 250 to (${crashStorage.name})`, async () => {
      const place = crashStorage.create();
      cleanups.push(() => place.cleanup());

      // Emails to bounce, sent before the receiver starts.
      const setupStorage = place.open();
      await setupStorage.migrate();
      const setup = createMailPulse({
        storage: setupStorage,
        baseUrl: "http://mailpulse.test",
        platformDomain: "mailpulse.test",
        signingSecret,
        logger: quiet,
      });
      const organizationId = (await setup.organizations.create({ name: "Acme" })).id;
      const key = await setup.signingKey.key();
      const bounces: Array<{ recipient: string; to: string; dsn: string }> = [];
      for (let index = 0; index < emailCount; index++) {
        const recipient = `r${index}@example.com`;
        const sent = await setup.emails.send(organizationId, {
          from: "news@shop.example",
          to: recipient,
          subject: `Hello ${index}`,
          htmlContent: "<p>Hi</p>",
        });
        const token = createRecipientToken(
          { trackingId: sent.emailTrackingId, recipientIndex: 0 },
          "return-path",
          key,
        );
        bounces.push({
          recipient,
          to: `bounces+${token}@send.mailpulse.test`,
          dsn: returnedFixture("postfix-user-unknown.eml", { "nobody@remote.example": recipient }),
        });
      }
      await setup.stop();
      await setupStorage.close();

      const child: ChildProcess = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          "--conditions=source",
          fileURLToPath(new URL("./receive-then-die.ts", import.meta.url)),
          place.spec,
          signingSecret,
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      cleanups.push(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      });
      let output = "";
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout?.on("data", (chunk) => {
          output += chunk;
          const match = /port (\d+)/.exec(output);
          if (match) resolve(Number(match[1]));
        });
        child.stderr?.on("data", (chunk) => {
          output += chunk;
        });
        child.on("exit", () => reject(new Error(`The receiver exited before listening: ${output}`)));
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on("exit", (_code, signal) => resolve(signal)),
      );

      // A burst over several connections; the child dies once a third of the DSNs are answered.
      const accepted: string[] = [];
      const answered: SmtpReply[] = [];
      const killAfter = Math.floor(emailCount / 3);
      const lanes = Array.from({ length: connections }, async (_, lane) => {
        const client = await connectSmtp(port);
        try {
          for (let index = lane; index < emailCount; index += connections) {
            const bounce = bounces[index]!;
            const reply = await client.send({ from: "", to: [bounce.to] }, bounce.dsn);
            answered.push(reply);
            if (reply.code === 250) accepted.push(bounce.recipient);
            if (answered.length === killAfter) child.kill("SIGKILL");
            if (reply.code !== 250) return;
          }
        } catch {
          // The connection died with the child.
        } finally {
          client.close();
        }
      });
      await Promise.all(lanes);
      expect(await exited).toBe("SIGKILL");
      expect(accepted.length).toBeGreaterThanOrEqual(killAfter);
      expect(accepted.length).toBeLessThan(emailCount);

      const storage = place.open();
      cleanups.push(() => storage.close());
      const suppressed = await storage.suppressions.list(organizationId, { limit: 1000 });
      const addresses = new Set(suppressed.map((entry) => entry.address));
      for (const recipient of accepted) expect(addresses.has(recipient), recipient).toBe(true);
      const logged = await storage.inboundMessages.list(organizationId, { limit: 1000 });
      expect(logged.length).toBeGreaterThanOrEqual(accepted.length);
    }, 60_000);
});
