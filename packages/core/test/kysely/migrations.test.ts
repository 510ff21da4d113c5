/**
 * The migrations run up and down on both dialects: every `down` undoes its `up` (a database
 * migrated down to nothing has no MailPulse table left, and migrates up again), and the names
 * databases have recorded stay as they were.
 */

import { postgresMailPulseDialect } from "@mailpulse/storage-postgres";
import { sqliteMailPulseDialect } from "@mailpulse/storage-sqlite";
import Database from "better-sqlite3";
import { Kysely, Migrator, NO_MIGRATIONS, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { MailPulseDialect } from "../../src/kysely/dialect.js";
import { createMigrationProvider, migrationTableNames } from "../../src/kysely/migration-provider.js";

const connectionString = process.env.DATABASE_URL;

// biome-ignore lint/suspicious/noExplicitAny: the test reads the schema, not typed rows.
type AnyDb = Kysely<any>;

/** Migrates `db` up, down to nothing and up again, checking the tables at each step. */
async function roundTrip(db: AnyDb, dialect: MailPulseDialect, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: createMigrationProvider(dialect),
    ...migrationTableNames,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const tables = async () =>
    (await db.introspection.getTables())
      .filter((table) => schema === undefined || table.schema === schema)
      .map((table) => table.name)
      .filter((name) => !name.startsWith("mailpulse_migration"))
      .sort();

  const up = await migrator.migrateToLatest();
  expect(up.error).toBeUndefined();
  expect(up.results?.map((result) => [result.migrationName, result.direction, result.status])).toEqual([
    ["0001_initial_schema", "Up", "Success"],
    ["0002_event_campaign_click_index", "Up", "Success"],
    ["0003_sending_domain_checks", "Up", "Success"],
    ["0004_webhook_delivery", "Up", "Success"],
    ["0005_email_tags", "Up", "Success"],
    ["0005_idempotency_keys", "Up", "Success"],
    ["0006_rate_limit", "Up", "Success"],
    ["0007_hit_verdicts", "Up", "Success"],
    ["0008_suppressions", "Up", "Success"],
    ["0009_delivery_feedback", "Up", "Success"],
    ["0010_inbound_messages", "Up", "Success"],
    ["0011_email_list_index", "Up", "Success"],
  ]);
  expect(await tables()).toContain("mailpulse_webhook_delivery");

  const down = await migrator.migrateTo(NO_MIGRATIONS);
  expect(down.error).toBeUndefined();
  expect(down.results?.map((result) => [result.migrationName, result.direction])).toEqual([
    ["0011_email_list_index", "Down"],
    ["0010_inbound_messages", "Down"],
    ["0009_delivery_feedback", "Down"],
    ["0008_suppressions", "Down"],
    ["0007_hit_verdicts", "Down"],
    ["0006_rate_limit", "Down"],
    ["0005_idempotency_keys", "Down"],
    ["0005_email_tags", "Down"],
    ["0004_webhook_delivery", "Down"],
    ["0003_sending_domain_checks", "Down"],
    ["0002_event_campaign_click_index", "Down"],
    ["0001_initial_schema", "Down"],
  ]);
  expect(await tables()).toEqual([]);

  expect((await migrator.migrateToLatest()).error).toBeUndefined();
  expect(await tables()).toHaveLength(20);
  expect(await tables()).toContain("mailpulse_rate_limit");
  expect(await tables()).toContain("mailpulse_suppression");
}

describe("migrations", () => {
  it("run up, down to nothing and up again on SQLite", async () => {
    const database = new Database(":memory:");
    const db: AnyDb = new Kysely({ dialect: new SqliteDialect({ database }) });
    try {
      await roundTrip(db, sqliteMailPulseDialect({ database }));
    } finally {
      await db.destroy();
    }
  });

  it.skipIf(!connectionString)("run up, down to nothing and up again on PostgreSQL", async () => {
    const schema = `mailpulse_down_${Date.now().toString(36)}`;
    const admin = new pg.Pool({ connectionString, max: 1 });
    await admin.query(`create schema "${schema}"`);
    const pool = new pg.Pool({ connectionString, max: 2, options: `-c search_path="${schema}"` });
    const db: AnyDb = new Kysely({ dialect: new PostgresDialect({ pool }) });
    try {
      await roundTrip(db, postgresMailPulseDialect(), schema);
    } finally {
      await db.destroy();
      await admin.query(`drop schema "${schema}" cascade`);
      await admin.end();
    }
  });
});
