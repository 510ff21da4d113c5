import { runStorageContractSuite } from "@mailpulse/core/testing/contracts";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { createIsolatedPostgresStorage } from "@mailpulse/storage-postgres/testing";
import pg from "pg";
import { describe, expect, it } from "vitest";

const connectionString = process.env.DATABASE_URL;

// Without DATABASE_URL these are skipped; vitest.global-setup.ts prints how to run them.
describe.skipIf(!connectionString)("postgres", () => {
  runStorageContractSuite("postgres", () => createIsolatedPostgresStorage(connectionString!));

  it("migrates the connection's current schema even when another schema already has the tables", async () => {
    // A storage in its own schema first, so MailPulse tables exist elsewhere in the database.
    const elsewhere = await createIsolatedPostgresStorage(connectionString!);
    const schema = `mailpulse_path_${Date.now().toString(36)}`;
    const admin = new pg.Pool({ connectionString, max: 1 });
    await admin.query(`create schema "${schema}"`);
    const pool = new pg.Pool({ connectionString, max: 2, options: `-c search_path="${schema}"` });
    try {
      const storage = postgresStorage({ pool });
      await storage.migrate();
      await storage.migrate();
      await storage.organizations.create({ id: "o1", name: "In search_path", createdAt: new Date() });
      const { rows } = await admin.query(`select name from "${schema}".mailpulse_organization`);
      expect(rows).toEqual([{ name: "In search_path" }]);
    } finally {
      await pool.end();
      await admin.query(`drop schema "${schema}" cascade`);
      await admin.end();
      await elsewhere.close();
    }
  });

  it("leaves a pool passed in by the host open on close", async () => {
    const pool = new pg.Pool({ connectionString, max: 1 });
    const storage = postgresStorage({ pool });
    await storage.close();
    const { rows } = await pool.query("select 1 as one");
    expect(rows).toEqual([{ one: 1 }]);
    await pool.end();
  });
});
