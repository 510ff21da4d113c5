import { postgresStorage } from "@mailpulse/storage-postgres";
import { createIsolatedPostgresStorage } from "@mailpulse/storage-postgres/testing";
import { runStorageContractSuite } from "@mailpulse/testing/contracts";
import pg from "pg";
import { describe, expect, it } from "vitest";

const connectionString = process.env.DATABASE_URL;

// Without DATABASE_URL these are skipped; vitest.global-setup.ts prints how to run them.
describe.skipIf(!connectionString)("postgres", () => {
  runStorageContractSuite("postgres", () => createIsolatedPostgresStorage(connectionString!));
  // Behind a pooler that cannot keep prepared statements, the tracking batch is sent as a plain query.
  runStorageContractSuite("postgres without prepared statements", () =>
    createIsolatedPostgresStorage(connectionString!, { preparedStatements: false }),
  );

  it("records tracking batches through one named prepared statement per connection", async () => {
    const schema = `mailpulse_prepared_${Date.now().toString(36)}`;
    const pool = new pg.Pool({ connectionString, max: 1 });
    const storage = postgresStorage({ pool, schema });
    try {
      await storage.migrate();
      const prepared = async () =>
        (await pool.query("select name from pg_prepared_statements where name like 'mailpulse_hits_%'")).rows;
      expect(await prepared()).toEqual([]);
      const hit = {
        event: {
          type: "open" as const,
          organizationId: "nobody",
          emailId: "none",
          campaignId: null,
          linkId: null,
          occurredAt: new Date(),
          ip: null,
          userAgent: null,
          method: "GET" as const,
          msSinceSent: null,
          verdict: { machine: false, source: "human" as const, reasons: ["no machine signal"] },
        },
      };
      // An unknown email records nothing, but the batch statement still runs, prepared.
      expect(await storage.tracking.recordEvents([hit])).toBe(0);
      expect(await storage.tracking.recordEvents([hit, hit])).toBe(0);
      expect(await prepared()).toHaveLength(1);
    } finally {
      await pool.query(`drop schema if exists "${schema}" cascade`);
      await storage.close();
      await pool.end();
    }
  });

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
