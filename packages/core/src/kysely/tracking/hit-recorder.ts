import type { Kysely, SqliteDatabase } from "kysely";
import type { TrackingHit } from "../../ports/storage.js";
import type { StorageCapabilities } from "../capabilities.js";
import type { MailPulseDatabase } from "../schema.js";
import { type PreparedQueryRunner, recordHitsPostgres } from "./record-hits-postgres.js";
import { createSqliteHitRecorder } from "./record-hits-sqlite.js";

/** Writes one batch of hits in one transaction; resolves to the number recorded. */
export type HitRecorder = (hits: readonly TrackingHit[]) => Promise<number>;

/** What the dialect's writer needs besides `db` (see `KyselyStorageOptions`). */
export interface HitRecorderOptions {
  capabilities: StorageCapabilities;
  schema: string | undefined;
  sqliteDatabase: SqliteDatabase | undefined;
  postgresPreparedQueries: PreparedQueryRunner | undefined;
}

/**
 * The tracking write path of the dialect, chosen once: PostgreSQL writes a batch in one statement
 * (one round trip); SQLite, in-process, runs a transaction of single-row statements compiled once.
 * Throws at construction when SQLite's raw database is missing, rather than at the first hit.
 */
export function createHitRecorder(db: Kysely<MailPulseDatabase>, options: HitRecorderOptions): HitRecorder {
  if (options.capabilities.dialect === "postgres") {
    return (hits) => recordHitsPostgres(db, hits, options.schema, options.postgresPreparedQueries);
  }
  if (!options.sqliteDatabase) {
    throw new TypeError(
      "createKyselyStorage: a SQLite storage needs `sqliteDatabase`, the database its dialect runs on",
    );
  }
  return createSqliteHitRecorder(db, options.sqliteDatabase);
}
