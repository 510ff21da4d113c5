/**
 * Issue 30, trap 5: `DATABASE_URL=.../newcomer_test npm test` before `createdb`. The global setup's
 * helper creates a missing database (on the real server at DATABASE_URL), and answers a server it
 * cannot reach at once, in one line.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { ensureTestDatabase } from "../../../scripts/ensure-test-database.js";

const postgresUrl = process.env.DATABASE_URL;

describe("ensureTestDatabase", () => {
  it("stops at once, in one line, when nothing listens at the address", async () => {
    const startedAt = Date.now();
    await expect(ensureTestDatabase("postgres://postgres:s3cret@127.0.0.1:9/newcomer_test")).rejects.toThrow(
      /^PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:9\/newcomer_test cannot be used: .*ECONNREFUSED/,
    );
    expect(Date.now() - startedAt).toBeLessThan(1000);
  });

  it.runIf(postgresUrl)("creates the database when it is missing, and finds it the next time", async () => {
    const name = `mailpulse_newcomer_${randomBytes(4).toString("hex")}`;
    const url = new URL(postgresUrl!);
    url.pathname = `/${name}`;
    try {
      expect(await ensureTestDatabase(url.href)).toBe("created");
      expect(await ensureTestDatabase(url.href)).toBe("exists");
    } finally {
      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});
