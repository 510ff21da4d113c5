/**
 * Reads one number from a benchmark database directly (not through MailPulse), to check what a
 * server recorded after it stopped, or after it was killed.
 */
import Database from "better-sqlite3";
import pg from "pg";
import type { StorageConfig } from "./config.js";

/**
 * Runs `sql` (a query returning one number in its first column) on the database of `config`.
 * `{table}` placeholders are replaced by the table names (schema-qualified on PostgreSQL):
 * `select count(*) from {mailpulse_event}`. Opening a SQLite file read-write lets SQLite recover
 * its write-ahead log after a crash, as MailPulse would on restart.
 */
export async function scalarQuery(config: StorageConfig, sql: string): Promise<number> {
  if (config.kind === "sqlite") {
    const database = new Database(config.filename);
    try {
      const value = database
        .prepare(sql.replace(/\{(\w+)\}/g, "$1"))
        .pluck()
        .get();
      return Number(value ?? 0);
    } finally {
      database.close();
    }
  }
  const client = new pg.Client({ connectionString: config.url });
  await client.connect();
  try {
    const result = await client.query({
      text: sql.replace(/\{(\w+)\}/g, `"${config.schema}".$1`),
      rowMode: "array",
    });
    return Number(result.rows[0]?.[0] ?? 0);
  } finally {
    await client.end();
  }
}
