import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postgresMailPulseDialect } from "@mailpulse/storage-postgres";
import { sqliteMailPulseDialect } from "@mailpulse/storage-sqlite";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { retryOnLockConflict } from "../../src/kysely/retry-on-lock-conflict.js";

// Each dialect recognises its driver's conflicts; the retry runs on whichever it is given.
const { isLockConflict: isPostgresLockConflict } = postgresMailPulseDialect();

describe("retryOnLockConflict", () => {
  it("runs the transaction again after a lock conflict, until it succeeds", async () => {
    let runs = 0;
    const result = await retryOnLockConflict(async () => {
      runs++;
      if (runs < 3) throw Object.assign(new Error("deadlock detected"), { code: "40P01" });
      return "committed";
    }, isPostgresLockConflict);
    expect(result).toBe("committed");
    expect(runs).toBe(3);
  });

  it("gives up after `attempts` runs with the last conflict", async () => {
    let runs = 0;
    const conflict = Object.assign(new Error("could not serialize access"), { code: "40001" });
    await expect(
      retryOnLockConflict(
        async () => {
          runs++;
          throw conflict;
        },
        isPostgresLockConflict,
        4,
      ),
    ).rejects.toBe(conflict);
    expect(runs).toBe(4);
  });

  it("throws any other error at once", async () => {
    let runs = 0;
    const refused = Object.assign(new Error("null value in column"), { code: "23502" });
    await expect(
      retryOnLockConflict(async () => {
        runs++;
        throw refused;
      }, isPostgresLockConflict),
    ).rejects.toBe(refused);
    expect(runs).toBe(1);
  });
});

describe("isLockConflict on real database errors", () => {
  const folder = mkdtempSync(join(tmpdir(), "mailpulse-busy-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("recognises SQLite's busy error from a second connection", () => {
    const filename = join(folder, "busy.db");
    const first = new Database(filename);
    const second = new Database(filename, { timeout: 0 });
    try {
      first.exec("create table t (n integer)");
      first.exec("begin immediate");
      first.exec("insert into t values (1)");
      let caught: unknown;
      try {
        second.exec("insert into t values (2)");
      } catch (error) {
        caught = error;
      }
      expect((caught as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
      expect(sqliteMailPulseDialect({ database: first }).isLockConflict(caught)).toBe(true);
      first.exec("rollback");
    } finally {
      first.close();
      second.close();
    }
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "lets two PostgreSQL transactions that deadlock both commit in the end",
    async () => {
      const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
      const table = `mailpulse_deadlock_${Date.now().toString(36)}`;
      await pool.query(`create table "${table}" (id int primary key, n int not null)`);
      try {
        await pool.query(`insert into "${table}" values (1, 0), (2, 0)`);
        let conflicts = 0;
        // Each holds one row, then asks for the other's: PostgreSQL aborts one with 40P01.
        let bothHoldOne: () => void = () => {};
        let holding = 0;
        const bothHolding = new Promise<void>((resolve) => {
          bothHoldOne = resolve;
        });
        const crossing = (firstRow: number, secondRow: number) =>
          retryOnLockConflict(async () => {
            const client = await pool.connect();
            try {
              await client.query("begin");
              await client.query(`update "${table}" set n = n + 1 where id = $1`, [firstRow]);
              if (++holding === 2) bothHoldOne();
              await bothHolding;
              await client.query(`update "${table}" set n = n + 1 where id = $1`, [secondRow]);
              await client.query("commit");
            } catch (error) {
              await client.query("rollback");
              if (isPostgresLockConflict(error)) conflicts++;
              throw error;
            } finally {
              client.release();
            }
          }, isPostgresLockConflict);
        await Promise.all([crossing(1, 2), crossing(2, 1)]);
        expect(conflicts).toBe(1);
        const { rows } = await pool.query(`select id, n from "${table}" order by id`);
        expect(rows).toEqual([
          { id: 1, n: 2 },
          { id: 2, n: 2 },
        ]);
      } finally {
        await pool.query(`drop table "${table}"`);
        await pool.end();
      }
    },
  );
});
