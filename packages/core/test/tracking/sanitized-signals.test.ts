import { randomBytes } from "node:crypto";
import { createMailPulse, memoryProvider, type Storage } from "@mailpulse/core";
import { createKyselyStorage, type MailPulseDatabase } from "@mailpulse/core/kysely";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { sqliteMailPulseDialect } from "@mailpulse/storage-sqlite";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";

interface StoredSignals {
  ip: string | null;
  user_agent: string | null;
}

/** A real storage plus a reader of the raw event rows, which the storage port does not expose. */
interface StorageWithReader {
  storage: Storage;
  events(): Promise<StoredSignals[]>;
  close(): Promise<void>;
}

async function sqliteWithReader(): Promise<StorageWithReader> {
  const database = new Database(":memory:");
  database.pragma("foreign_keys = ON");
  const db = new Kysely<MailPulseDatabase>({ dialect: new SqliteDialect({ database }) });
  const storage = createKyselyStorage({ db, dialect: sqliteMailPulseDialect({ database }) });
  await storage.migrate();
  return {
    storage,
    events: () =>
      db
        .selectFrom("mailpulse_event")
        .select(["ip", "user_agent"])
        .where("type", "!=", "sent")
        .orderBy("id")
        .execute(),
    close: () => storage.close(),
  };
}

async function postgresWithReader(connectionString: string): Promise<StorageWithReader> {
  const schema = `mailpulse_test_${randomBytes(6).toString("hex")}`;
  const pool = new pg.Pool({ connectionString, max: 3 });
  const storage = postgresStorage({ pool, schema });
  await storage.migrate();
  return {
    storage,
    events: async () =>
      (
        await pool.query<StoredSignals>(
          `select ip, user_agent from "${schema}".mailpulse_event where type <> 'sent' order by id`,
        )
      ).rows,
    async close() {
      try {
        await pool.query(`drop schema "${schema}" cascade`);
      } finally {
        await pool.end();
      }
    },
  };
}

const postgresUrl = process.env.DATABASE_URL;
const kinds: Array<[string, () => Promise<StorageWithReader>]> = [
  ["sqlite", sqliteWithReader],
  ...(postgresUrl
    ? [["postgres", () => postgresWithReader(postgresUrl)] as [string, () => Promise<StorageWithReader>]]
    : []),
];

const opened: StorageWithReader[] = [];
afterEach(async () => {
  for (const target of opened.splice(0)) await target.close();
});

describe.each(kinds)("client signals stored on %s", (_, open) => {
  async function setup(ipAddresses: "truncated" | "full" = "truncated") {
    const target = await open();
    opened.push(target);
    const errors: unknown[] = [];
    const mailpulse = createMailPulse({
      storage: target.storage,
      baseUrl: "http://mail.test",
      mailProvider: memoryProvider(),
      logger: { info: () => {}, error: (message, error) => errors.push([message, error]) },
      tracking: { ipAddresses },
    });
    const organization = await mailpulse.organizations.create({ name: "Acme" });
    const sent = await mailpulse.emails.send(organization.id, {
      from: "a@acme.example",
      to: "b@example.com",
      subject: "S",
      htmlContent: '<a href="https://example.com/x">x</a>',
    });
    /** The `userAgent` of each open and click event, as webhooks and the events API carry it. */
    const payloadAgents = async () =>
      (await mailpulse.events.list(organization.id, { type: "EMAIL_OPENED,EMAIL_CLICKED" })).data.map(
        (event) => event.data.userAgent,
      );
    return { target, mailpulse, sent, errors, payloadAgents };
  }

  it("removes NUL and replaces lone surrogates in the user agent, keeping valid pairs", async () => {
    const { target, mailpulse, sent, errors, payloadAgents } = await setup();
    const userAgent = "Mail\u0000Client \ud800x \udc00y \ud83d\ude00 z\ud83d";
    await mailpulse.tracking.recordOpen(sent.emailTrackingId, { userAgent });
    await mailpulse.tracking.resolveClick(sent.links[0]!.trackingId, { userAgent });
    const expected = "MailClient \ufffdx \ufffdy \ud83d\ude00 z\ufffd";
    expect(errors).toEqual([]);
    expect(await target.events()).toEqual([
      { ip: null, user_agent: expected },
      { ip: null, user_agent: expected },
    ]);
    expect(await payloadAgents()).toEqual([expected, expected]);
  });

  it("stores the cleaned user agent for every hit that sends it, not only the first", async () => {
    const { target, mailpulse, sent, errors } = await setup();
    // Each request brings its own string: the same text, a new string every time.
    const raw = () => ["Mail", "\u0000", "Client \ud800x"].join("");
    for (let hit = 0; hit < 3; hit++)
      await mailpulse.tracking.recordOpen(sent.emailTrackingId, { userAgent: raw() });
    expect(errors).toEqual([]);
    expect(await target.events()).toEqual(
      Array.from({ length: 3 }, () => ({ ip: null, user_agent: "MailClient \ufffdx" })),
    );
  });

  it("does not leave half of a surrogate pair where a long user agent is cut", async () => {
    const { target, mailpulse, sent, errors } = await setup();
    // 511 characters, then an emoji (two UTF-16 units) across the 512-unit limit.
    await mailpulse.tracking.recordOpen(sent.emailTrackingId, {
      userAgent: `${"a".repeat(511)}\ud83d\ude00 tail`,
    });
    expect(errors).toEqual([]);
    expect(await target.events()).toEqual([{ ip: null, user_agent: `${"a".repeat(511)}\ufffd` }]);
  });

  it("stores a full IP address as text every storage accepts", async () => {
    const { target, mailpulse, sent, errors } = await setup("full");
    await mailpulse.tracking.recordOpen(sent.emailTrackingId, { ip: "198.51.100.7\u0000\ud800" });
    expect(errors).toEqual([]);
    expect(await target.events()).toEqual([{ ip: "198.51.100.7\ufffd", user_agent: null }]);
  });
});
