import type { MailPulseDialect } from "@mailpulse/core/kysely";
import { sql } from "kysely";
import {
  isPostgresLockConflict,
  isPostgresMissingTable,
  isPostgresUniqueViolation,
} from "./driver-errors.js";
import { lockEventLog } from "./event-log-lock.js";
import { type PreparedQueryRunner, recordHitsPostgres } from "./record-hits.js";

/** Options of {@link postgresMailPulseDialect}. */
export interface PostgresMailPulseDialectOptions {
  /**
   * A runner of named prepared statements: the `pg.Pool` (or `Client`) the Kysely instance runs
   * on. Given, the tracking write path's batch statement is parsed and planned once per connection
   * instead of on every batch. Leave it out behind a pooler that cannot keep prepared statements
   * (PgBouncer in transaction mode before 1.21). Default: none (plain queries).
   */
  preparedQueries?: PreparedQueryRunner;
}

/**
 * What PostgreSQL offers the shared Kysely store (`createKyselyStorage({ dialect })` from
 * `@mailpulse/core/kysely`): row locks and `SKIP LOCKED`, identity keys, schemas, the event log's
 * advisory lock, and a hit writer that sends each batch as one statement.
 */
export function postgresMailPulseDialect(options: PostgresMailPulseDialectOptions = {}): MailPulseDialect {
  const { preparedQueries } = options;
  return {
    rowLocks: true,
    skipLocked: true,
    // One round trip per batch, serialised inside the database by the event log's lock only from
    // the statement's start, so a second batch in flight hides the first one's trip.
    concurrentHitBatches: 2,
    isLockConflict: isPostgresLockConflict,
    isUniqueViolation: isPostgresUniqueViolation,
    isMissingTable: isPostgresMissingTable,
    addSerialId: (table) =>
      table.addColumn("id", "bigint", (column) => column.primaryKey().generatedByDefaultAsIdentity()),
    async currentSchema(db) {
      return (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name;
    },
    lockEventLog,
    createHitRecorder:
      (db, { schema }) =>
      (hits) =>
        recordHitsPostgres(db, hits, schema, preparedQueries),
  };
}
