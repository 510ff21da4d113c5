/**
 * The seeded databases of the tracking cases. Seeding takes seconds, so it happens once per
 * storage; every MailPulse run then starts from the same state: on SQLite a fresh copy of the
 * seeded file, on PostgreSQL the same schema (the check counts what a run added).
 */

import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import pg from "pg";
import type { TempFolder } from "../lib/temp-folder.js";
import type { StorageConfig } from "../server/config.js";
import { type SeededEmails, seedSentEmails } from "./seed.js";

/** A seeded database. */
export interface BenchDatabase {
  label: "SQLite file" | "PostgreSQL";
  seeded: SeededEmails;
  /** The storage one MailPulse server run uses (on SQLite, a fresh copy of the seeded file). */
  forRun(): StorageConfig;
  /** Deletes what the database left behind (the PostgreSQL schema). */
  dispose(): Promise<void>;
}

/** Seeds `emails` sent emails into a SQLite file in `folder`. */
export async function seedSqliteDatabase(folder: TempFolder, emails: number): Promise<BenchDatabase> {
  const template = folder.file("seeded.db");
  // Closing the storage checkpoints the write-ahead log into the file, so copying it is enough.
  const seeded = await seedSentEmails({ kind: "sqlite", filename: template }, emails);
  const filename = folder.file("run.db");
  return {
    label: "SQLite file",
    seeded,
    forRun() {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${filename}${suffix}`, { force: true });
      copyFileSync(template, filename);
      if (existsSync(`${template}-wal`)) copyFileSync(`${template}-wal`, `${filename}-wal`);
      return { kind: "sqlite", filename };
    },
    async dispose() {},
  };
}

/** Seeds `emails` sent emails into a new schema of the PostgreSQL database at `url`. */
export async function seedPostgresDatabase(url: string, emails: number): Promise<BenchDatabase> {
  const config: StorageConfig = {
    kind: "postgres",
    url,
    schema: `mailpulse_bench_${randomBytes(6).toString("hex")}`,
  };
  const seeded = await seedSentEmails(config, emails);
  return {
    label: "PostgreSQL",
    seeded,
    forRun: () => config,
    async dispose() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${config.schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}
