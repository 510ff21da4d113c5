/**
 * `@mailpulse/storage-postgres/testing`: an isolated PostgreSQL storage per test, in a schema of
 * its own that is dropped on close, so test files can run in parallel against one database.
 */
import { randomBytes } from "node:crypto";
import type { Storage } from "@mailpulse/core";
import pg from "pg";
import { type PostgresStorageOptions, postgresStorage } from "./index.js";

/** A migrated storage in a new schema `mailpulse_test_<random>` of the database at `connectionString`. */
export async function createIsolatedPostgresStorage(
  connectionString: string,
  options: Pick<PostgresStorageOptions, "preparedStatements"> = {},
): Promise<Storage> {
  const schema = `mailpulse_test_${randomBytes(6).toString("hex")}`;
  const pool = new pg.Pool({ connectionString, max: 5 });
  const storage = postgresStorage({ pool, schema, ...options });
  try {
    await storage.migrate();
  } catch (error) {
    await pool.query(`drop schema if exists "${schema}" cascade`).finally(() => pool.end());
    throw error;
  }
  return {
    ...storage,
    async close() {
      await storage.close();
      try {
        await pool.query(`drop schema "${schema}" cascade`);
      } finally {
        await pool.end();
      }
    },
  };
}
