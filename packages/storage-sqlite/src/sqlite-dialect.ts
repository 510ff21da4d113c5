import type { MailPulseDialect } from "@mailpulse/core/kysely";
import type { SqliteDatabase } from "kysely";
import { isSqliteLockConflict, isSqliteMissingTable, isSqliteUniqueViolation } from "./driver-errors.js";
import { createSqliteHitRecorder } from "./record-hits.js";

/** Options of {@link sqliteMailPulseDialect}. */
export interface SqliteMailPulseDialectOptions {
  /**
   * The database the Kysely instance's `SqliteDialect` runs on (a better-sqlite3 `Database`, or
   * anything with its `prepare`). Required: the tracking write path runs its compiled statements
   * on it directly, holding Kysely's one connection meanwhile (`record-hits.ts` says why).
   */
  database: SqliteDatabase;
}

/**
 * What SQLite offers the shared Kysely store (`createKyselyStorage({ dialect })` from
 * `@mailpulse/core/kysely`): one write transaction at a time, so no row locks, no `SKIP LOCKED`
 * and no event log lock are needed; rowid keys; no schemas; and a hit writer of single-row
 * statements compiled once. Throws a `TypeError` when `database` is missing, rather than at the
 * first tracking hit.
 */
export function sqliteMailPulseDialect(options: SqliteMailPulseDialectOptions): MailPulseDialect {
  const { database } = options;
  if (!database) {
    throw new TypeError(
      "sqliteMailPulseDialect: a SQLite storage needs `database`, the database its Kysely dialect runs on",
    );
  }
  return {
    rowLocks: false,
    skipLocked: false,
    // In-process and one writer at a time: a second batch in flight would only wait.
    concurrentHitBatches: 1,
    isLockConflict: isSqliteLockConflict,
    isUniqueViolation: isSqliteUniqueViolation,
    isMissingTable: isSqliteMissingTable,
    // The rowid alias: ids grow with each insert, without a separate sequence.
    addSerialId: (table) => table.addColumn("id", "integer", (column) => column.primaryKey()),
    currentSchema: async () => undefined,
    lockEventLog: async () => {},
    createHitRecorder: (db) => createSqliteHitRecorder(db, database),
  };
}
