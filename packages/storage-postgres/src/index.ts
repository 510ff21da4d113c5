/**
 * `@mailpulse/storage-postgres`: MailPulse storage on PostgreSQL through pg.
 */
import type { Storage } from "@mailpulse/core";
import { createKyselyStorage, type MailPulseDatabase } from "@mailpulse/core/kysely";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { postgresMailPulseDialect } from "./postgres-dialect.js";

export { type PostgresMailPulseDialectOptions, postgresMailPulseDialect } from "./postgres-dialect.js";
export type { PreparedQueryRunner } from "./record-hits.js";

/** Options of {@link postgresStorage}: a connection string (we own the pool) or the host's pool. */
export type PostgresStorageOptions = (
  | {
      connectionString: string;
      /** Pool size; default 10. */
      max?: number;
    }
  | {
      /** A pool the host owns; `storage.close()` leaves it open. */
      pool: pg.Pool;
    }
) & {
  /** Schema holding the MailPulse tables, created on migrate when missing. Default: `search_path`. */
  schema?: string;
  /**
   * Whether the tracking write path uses a named prepared statement (parsed and planned once per
   * connection instead of on every batch). Default true; set false behind a pooler that cannot
   * keep prepared statements, such as PgBouncer in transaction mode before 1.21.
   */
  preparedStatements?: boolean;
};

/**
 * MailPulse storage on PostgreSQL. The tables, all prefixed `mailpulse_`, live in `schema` or
 * else the connection's current schema (`search_path`). Call `await storage.migrate()` before use.
 */
export function postgresStorage(options: PostgresStorageOptions): Storage {
  const ownsConnection = !("pool" in options);
  const pool =
    "pool" in options
      ? options.pool
      : new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10 });
  const db = new Kysely<MailPulseDatabase>({ dialect: new PostgresDialect({ pool }) });
  return createKyselyStorage({
    db,
    dialect: postgresMailPulseDialect(options.preparedStatements === false ? {} : { preparedQueries: pool }),
    ownsConnection,
    schema: options.schema,
    rateLimitBackend: { kind: "pg", pool, ...(options.schema ? { schema: options.schema } : {}) },
  });
}
