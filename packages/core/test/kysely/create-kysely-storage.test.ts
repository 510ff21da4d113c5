import type { MailPulseDatabase } from "@mailpulse/core/kysely";
import { createKyselyStorage } from "@mailpulse/core/kysely";
import { sqliteCapabilities } from "@mailpulse/storage-sqlite";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { expect, it } from "vitest";

it("refuses a SQLite storage without the database its tracking writer runs on, when built", async () => {
  const database = new Database(":memory:");
  const db = new Kysely<MailPulseDatabase>({ dialect: new SqliteDialect({ database }) });
  try {
    expect(() => createKyselyStorage({ db, capabilities: sqliteCapabilities })).toThrow(
      "createKyselyStorage: a SQLite storage needs `sqliteDatabase`",
    );
  } finally {
    await db.destroy();
  }
});
