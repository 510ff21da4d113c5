/**
 * Delivery across processes: a worker killed with SIGKILL after claiming loses nothing (its rows
 * are claimed again when the lease expires), and two workers on one PostgreSQL database deliver
 * each of 1,000 events exactly once.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMailPulse, type MailPulse, type Storage, smtpProvider } from "@mailpulse/core";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { createTestClock } from "@mailpulse/testing";
import {
  type HttpsTestReceiver,
  type SmtpTestServer,
  startHttpsTestReceiver,
  startSmtpTestServer,
} from "@mailpulse/testing/peers";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const quiet = { info: () => {}, error: () => {} };
const postgresUrl = process.env.DATABASE_URL;
const workerScript = join(import.meta.dirname, "fixtures/claiming-worker.ts");

/** A storage two processes (or two instances) open by name: a SQLite file, or a PostgreSQL schema. */
interface SharedStorage {
  env: Record<string, string>;
  open(): Promise<Storage>;
  drop(): Promise<void>;
}

async function sharedSqlite(): Promise<SharedStorage> {
  const folder = await mkdtemp(join(tmpdir(), "mailpulse-workers-"));
  const filename = join(folder, "mailpulse.db");
  return {
    env: { STORAGE: "sqlite", SQLITE_FILE: filename },
    open: async () => sqliteStorage({ filename }),
    drop: () => rm(folder, { recursive: true, force: true }),
  };
}

function sharedPostgres(url: string): SharedStorage {
  const schema = `mailpulse_test_${randomBytes(6).toString("hex")}`;
  return {
    env: { STORAGE: "postgres", DATABASE_URL: url, PG_SCHEMA: schema },
    open: async () => postgresStorage({ connectionString: url, schema }),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    },
  };
}

const kinds: Array<{ name: string; shared: () => Promise<SharedStorage> }> = [
  { name: "sqlite", shared: sharedSqlite },
  ...(postgresUrl ? [{ name: "postgres", shared: async () => sharedPostgres(postgresUrl) }] : []),
];

let smtp: SmtpTestServer;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
});
afterAll(async () => {
  await smtp?.close();
});

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function instance(
  storage: Storage,
  receiver: HttpsTestReceiver,
  clock = createTestClock(new Date()),
  concurrencyPerWebhook?: number,
) {
  const mailpulse = createMailPulse({
    storage,
    baseUrl: "http://mail.test",
    clock,
    logger: quiet,
    mailProvider: smtpProvider({ url: smtp.url }),
    webhooks: {
      allowPrivateNetworks: true,
      ca: receiver.ca,
      ...(concurrencyPerWebhook && { concurrencyPerWebhook }),
    },
  });
  cleanups.push(() => mailpulse.stop());
  return mailpulse;
}

async function sentEmail(mailpulse: MailPulse, organizationId: string) {
  return mailpulse.emails.send(organizationId, {
    from: "news@acme.example",
    to: "ann@example.com",
    subject: "Hello",
    htmlContent: "<p>Hello</p>",
  });
}

describe.each(kinds)("a worker killed after claiming, on $name", ({ shared }) => {
  it("loses nothing: the delivery is claimed again once its lease expires, and delivered", async () => {
    const receiver = await startHttpsTestReceiver({
      // The first attempt never gets an answer: the worker is killed while waiting for it.
      respond: (_request, index) => (index === 0 ? { status: 200, delayMs: 60_000 } : { status: 200 }),
    });
    cleanups.push(() => receiver.close());
    const store = await shared();
    cleanups.push(() => store.drop());
    const storage = await store.open();
    cleanups.push(() => storage.close());
    await storage.migrate();
    const clock = createTestClock(new Date());
    const mailpulse = await instance(storage, receiver, clock);
    const organization = await mailpulse.organizations.create({ name: "Acme" });
    const webhook = await mailpulse.webhooks.create(organization.id, {
      url: receiver.url,
      events: ["EMAIL_SENT"],
    });
    await sentEmail(mailpulse, organization.id);

    const child: ChildProcess = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=source", workerScript],
      {
        env: { ...process.env, ...store.env, RECEIVER_CA: receiver.ca },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const exited = new Promise((resolve) => child.once("exit", resolve));
    cleanups.push(async () => {
      child.kill("SIGKILL");
      await exited;
    });
    await receiver.waitFor(1, 20_000);
    child.kill("SIGKILL");
    await exited;

    // Claimed and leased by the dead worker: nobody takes it before the lease runs out...
    expect(await mailpulse.deliverWebhooks()).toBe(0);
    const [pending] = (await mailpulse.webhooks.listDeliveries(organization.id, webhook.id)).data;
    expect(pending).toMatchObject({ state: "pending", attempts: 1 });
    // ...then it is claimed again and delivered.
    // (The lease is 60 s from the child's claim, a few seconds after this clock was created.)
    clock.advance(120_000);
    expect(await mailpulse.deliverWebhooks()).toBe(1);
    await receiver.waitFor(2);
    const [delivered] = (await mailpulse.webhooks.listDeliveries(organization.id, webhook.id)).data;
    expect(delivered).toMatchObject({ state: "delivered", attempts: 2, lastStatus: 200 });
    expect(new Set(receiver.requests.map((request) => request.headers["webhook-id"])).size).toBe(1);
  }, 60_000);
});

describe.runIf(postgresUrl)("two workers on one PostgreSQL database", () => {
  it("deliver each of 1,000 events exactly once", async () => {
    const receiver = await startHttpsTestReceiver();
    cleanups.push(() => receiver.close());
    const store = sharedPostgres(postgresUrl ?? "");
    cleanups.push(() => store.drop());
    const [first, second] = [await store.open(), await store.open()];
    cleanups.push(
      () => first.close(),
      () => second.close(),
    );
    await first.migrate();
    // One endpoint here: without lifting its cap of attempts under way (4, counted across
    // processes), the second worker would find the endpoint busy and claim nothing.
    const uncapped = 1000;
    const [one, two] = [
      await instance(first, receiver, undefined, uncapped),
      await instance(second, receiver, undefined, uncapped),
    ];
    const organization = await one.organizations.create({ name: "Acme" });
    await one.webhooks.create(organization.id, { url: receiver.url, events: ["EMAIL_OPENED"] });
    const sent = await sentEmail(one, organization.id);
    await Promise.all(Array.from({ length: 1000 }, () => one.tracking.recordOpen(sent.emailTrackingId, {})));

    const attempted = [0, 0];
    const drain = async (mailpulse: MailPulse, index: number) => {
      for (let n = await mailpulse.deliverWebhooks(); n > 0; n = await mailpulse.deliverWebhooks()) {
        attempted[index] = (attempted[index] ?? 0) + n;
      }
    };
    await Promise.all([drain(one, 0), drain(two, 1)]);

    expect(receiver.requests).toHaveLength(1000);
    const ids = receiver.requests.map((request) => JSON.parse(request.rawBody).id);
    expect(new Set(ids).size).toBe(1000);
    // Both took part: the claims skipped each other's rows rather than waiting for them.
    expect(attempted[0]).toBeGreaterThan(0);
    expect(attempted[1]).toBeGreaterThan(0);
    expect((attempted[0] ?? 0) + (attempted[1] ?? 0)).toBe(1000);
  }, 120_000);

  it("let a reader paging by event id while both write see every event exactly once", async () => {
    const receiver = await startHttpsTestReceiver();
    cleanups.push(() => receiver.close());
    const store = sharedPostgres(postgresUrl ?? "");
    cleanups.push(() => store.drop());
    const [first, second] = [await store.open(), await store.open()];
    cleanups.push(
      () => first.close(),
      () => second.close(),
    );
    await first.migrate();
    // One endpoint here: without lifting its cap of attempts under way (4, counted across
    // processes), the second worker would find the endpoint busy and claim nothing.
    const uncapped = 1000;
    const [one, two] = [
      await instance(first, receiver, undefined, uncapped),
      await instance(second, receiver, undefined, uncapped),
    ];
    const organization = await one.organizations.create({ name: "Acme" });
    const sent = await sentEmail(one, organization.id);

    let writing = true;
    const write = async (mailpulse: MailPulse) => {
      for (let round = 0; round < 40; round++) {
        await Promise.all(
          Array.from({ length: 10 }, () => mailpulse.tracking.recordOpen(sent.emailTrackingId, {})),
        );
      }
    };
    const seen: string[] = [];
    const read = async () => {
      let after: string | undefined;
      // Pages on while the writers run, then once more to the end.
      for (let drained = false; !drained; ) {
        const stillWriting = writing;
        const page = await one.events.list(organization.id, { limit: 25, after });
        seen.push(...page.data.map((event) => event.id));
        after = page.data.at(-1)?.id ?? after;
        drained = !stillWriting && page.nextCursor === null;
      }
    };
    const reader = read();
    await Promise.all([write(one), write(two), sendMore(two, organization.id)]);
    writing = false;
    await reader;

    expect(seen).toHaveLength(1 + 800 + 5);
    expect(new Set(seen).size).toBe(seen.length);
  }, 120_000);
});

async function sendMore(mailpulse: MailPulse, organizationId: string): Promise<void> {
  for (let n = 0; n < 5; n++) await sentEmail(mailpulse, organizationId);
}
