import type { MailPulseDatabase } from "@mailpulse/core/kysely";
import { createKyselyStorage } from "@mailpulse/core/kysely";
import { type SqliteMailPulseDialectOptions, sqliteMailPulseDialect } from "@mailpulse/storage-sqlite";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { expect, it } from "vitest";

it("refuses a SQLite storage without the database its tracking writer runs on, when built", async () => {
  const database = new Database(":memory:");
  const db = new Kysely<MailPulseDatabase>({ dialect: new SqliteDialect({ database }) });
  try {
    // A JavaScript caller (no type check) leaving `database` out.
    const withoutDatabase = {} as SqliteMailPulseDialectOptions;
    expect(() => createKyselyStorage({ db, dialect: sqliteMailPulseDialect(withoutDatabase) })).toThrow(
      "sqliteMailPulseDialect: a SQLite storage needs `database`",
    );
  } finally {
    await db.destroy();
  }
});
