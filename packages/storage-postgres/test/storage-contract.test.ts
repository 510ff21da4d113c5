import { runStorageContractSuite } from "@mailpulse/core/testing";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { createIsolatedPostgresStorage } from "@mailpulse/storage-postgres/testing";
import pg from "pg";
import { describe, expect, it } from "vitest";

const connectionString = process.env.DATABASE_URL;

// Without DATABASE_URL these are skipped; vitest.global-setup.ts prints how to run them.
describe.skipIf(!connectionString)("postgres", () => {
  runStorageContractSuite("postgres", () => createIsolatedPostgresStorage(connectionString!));

  it("leaves a pool passed in by the host open on close", async () => {
    const pool = new pg.Pool({ connectionString, max: 1 });
    const storage = postgresStorage({ pool });
    await storage.close();
    const { rows } = await pool.query("select 1 as one");
    expect(rows).toEqual([{ one: 1 }]);
    await pool.end();
  });
});
