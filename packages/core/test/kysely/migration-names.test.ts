/**
 * Migration names are what databases recorded in `mailpulse_migration`: a database migrated by
 * any earlier release, up to any of its migrations, must migrate on cleanly. Renaming a recorded
 * name would run its migration again, and Kysely refuses a recorded name the provider lacks.
 */
import { sqliteMailPulseDialect } from "@mailpulse/storage-sqlite";
import Database from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { describe, expect, it } from "vitest";
import { createMigrationProvider, migrationTableNames } from "../../src/kysely/migration-provider.js";

// biome-ignore lint/suspicious/noExplicitAny: the test reads the bookkeeping table, not typed rows.
type AnyDb = Kysely<any>;

/** The names released code recorded, in the order it ran them (two share 0005: see the provider). */
const recordedNames = [
  "0001_initial_schema",
  "0002_event_campaign_click_index",
  "0003_sending_domain_checks",
  "0004_webhook_delivery",
  "0005_email_tags",
  "0005_idempotency_keys",
  "0006_rate_limit",
  "0007_hit_verdicts",
];

async function openDatabase() {
  const database = new Database(":memory:");
  const db: AnyDb = new Kysely({ dialect: new SqliteDialect({ database }) });
  const provider = createMigrationProvider(sqliteMailPulseDialect({ database }));
  const names = Object.keys(await provider.getMigrations());
  const migrator = new Migrator({ db, provider, ...migrationTableNames });
  return { db, migrator, names };
}

describe("migration names", () => {
  it("keep every name databases recorded, and run in the order they were released", async () => {
    const migrations = await createMigrationProvider(
      sqliteMailPulseDialect({ database: new Database(":memory:") }),
    ).getMigrations();
    const names = Object.keys(migrations);
    expect(names.slice(0, recordedNames.length)).toEqual(recordedNames);
    // Kysely runs them sorted by name: the declared order must be that order.
    expect([...names].sort()).toEqual(names);
  });

  it.each(recordedNames)("migrate on cleanly from a database migrated up to %s", async (last) => {
    const { db, migrator, names } = await openDatabase();
    try {
      expect((await migrator.migrateTo(last)).error).toBeUndefined();
      const rest = await migrator.migrateToLatest();
      expect(rest.error).toBeUndefined();
      expect(rest.results?.map((result) => result.migrationName)).toEqual(
        names.slice(names.indexOf(last) + 1),
      );
      const recorded = await db
        .selectFrom(migrationTableNames.migrationTableName)
        .select("name")
        .orderBy("name")
        .execute();
      expect(recorded.map((row) => row.name)).toEqual(names);
      const again = await migrator.migrateToLatest();
      expect(again.error).toBeUndefined();
      expect(again.results).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
