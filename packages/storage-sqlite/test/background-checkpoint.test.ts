import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startBackgroundCheckpoint } from "../src/background-checkpoint.js";
import { sqliteStorage } from "../src/index.js";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "mailpulse-checkpoint-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function openWal(filename: string): BetterSqlite3.Database {
  const database = new Database(filename);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.exec("create table if not exists filler (payload blob)");
  return database;
}

/** Appends about `megabytes` MB in one transaction. */
function fill(database: BetterSqlite3.Database, megabytes: number): void {
  const insert = database.prepare("insert into filler (payload) values (randomblob(4000))");
  database.transaction(() => {
    for (let index = 0; index < megabytes * 256; index++) insert.run();
  })();
}

/** The restart count in a log's header (https://sqlite.org/fileformat.html#wal_file_format). */
function logRestarts(logFile: string): number {
  const header = Buffer.alloc(4);
  const descriptor = openSync(logFile, "r");
  try {
    readSync(descriptor, header, 0, 4, 12);
  } finally {
    closeSync(descriptor);
  }
  return header.readUInt32BE(0);
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("background checkpoint", () => {
  it("leaves commits to the log and copies the pages to the file from its worker", async () => {
    const filename = join(folder, "a.db");
    const database = openWal(filename);
    const checkpoint = startBackgroundCheckpoint(database, { intervalMs: 300, restartAfterPages: 1_000_000 });
    const before = statSync(filename).size;
    // 8 MB is past SQLite's own threshold (1,000 pages): on-commit checkpoints would have copied it.
    fill(database, 8);
    expect(statSync(filename).size).toBe(before);
    await until(() => statSync(filename).size > before + 7 * 1024 * 1024);
    await checkpoint.close();
    database.close();
    // The last connection closed on a checkpointed log: nothing is left in it.
    expect(existsSync(`${filename}-wal`)).toBe(false);
  });

  it("restarts the log past its limit while the writer never pauses for long", async () => {
    const filename = join(folder, "b.db");
    const database = openWal(filename);
    const limitPages = 1_000;
    const checkpoint = startBackgroundCheckpoint(database, { intervalMs: 20, restartAfterPages: limitPages });
    const restarts = () => logRestarts(`${filename}-wal`);
    const restartsBefore = restarts();
    // 100 KB transactions for 1.5 s, a timer's turn apart, as a busy server's batches come: the
    // worker's checkpoints copy the log while it grows, but only a restart sends the writer back
    // to its start.
    for (const end = Date.now() + 1_500; Date.now() < end; ) {
      fill(database, 0.1);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(restarts()).toBeGreaterThan(restartsBefore);
    // Without a restart the log would hold all of it (about 100 MB); with one it stays near the limit.
    expect(statSync(`${filename}-wal`).size).toBeLessThan(limitPages * 4096 * 4);
    await checkpoint.close();
    database.close();
  });

  it("turns SQLite's own checkpoints back on when its worker fails", async () => {
    const pragmas: string[] = [];
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      // The worker cannot open a file in a folder that does not exist: it fails at once.
      const unopenable = {
        name: join(folder, "missing", "c.db"),
        open: true,
        pragma: (text: string) => pragmas.push(text),
      } as unknown as BetterSqlite3.Database;
      const checkpoint = startBackgroundCheckpoint(unopenable, { intervalMs: 50, restartAfterPages: 1_000 });
      await until(() => pragmas.includes("wal_autocheckpoint = 1000"));
      expect(pragmas).toEqual(["wal_autocheckpoint = 0", "wal_autocheckpoint = 1000"]);
      await until(() => warnings.some((message) => message.includes("background checkpoint stopped")));
      await checkpoint.close();
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("is what a file storage uses, and closing the storage ends it and empties the log", async () => {
    const filename = join(folder, "d.db");
    const storage = sqliteStorage({ filename });
    await storage.migrate();
    await storage.organizations.create({ id: "org_1", name: "Acme", createdAt: new Date() });
    await storage.close();
    expect(existsSync(`${filename}-wal`)).toBe(false);
    const reopened = new Database(filename, { readonly: true });
    expect(reopened.prepare("select count(*) as n from mailpulse_organization").get()).toEqual({ n: 1 });
    reopened.close();
  });
});
