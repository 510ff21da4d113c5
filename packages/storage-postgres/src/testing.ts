/**
 * `@mailpulse/storage-postgres/testing`: an isolated PostgreSQL storage per test, in a schema of
 * its own that is dropped on close, so test files can run in parallel against one database.
 */
import { randomBytes } from "node:crypto";
import type { Storage } from "@mailpulse/core";
import pg from "pg";
import { postgresStorage } from "./index.js";

/** A migrated storage in a new schema `mailpulse_test_<random>` of the database at `connectionString`. */
export async function createIsolatedPostgresStorage(connectionString: string): Promise<Storage> {
  const schema = `mailpulse_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  try {
    await admin.query(`create schema "${schema}"`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString, max: 5, options: `-c search_path="${schema}"` });
  const storage = postgresStorage({ pool });
  await storage.migrate();
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
