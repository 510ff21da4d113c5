import type { Migration } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * `0006_rate_limit`: the counters of the API's rate limit, one row per API key and window, in the
 * shape `rate-limiter-flexible`'s SQLite and PostgreSQL stores read and write (key, points
 * consumed, expiry in epoch ms). Created here rather than by the library on first use, so the
 * table is part of the migrated schema (and its PostgreSQL schema) like every other.
 */
export const rateLimit: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("mailpulse_rate_limit")
      .addColumn("key", "varchar(255)", (c) => c.primaryKey())
      .addColumn("points", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("expire", "bigint")
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("mailpulse_rate_limit").execute();
  },
};
