import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteDatabase } from "../src/open-database.js";

const folders: string[] = [];
function fileInTempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "mailpulse-sqlite-open-"));
  folders.push(folder);
  return join(folder, "nested", "mailpulse.db");
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("openSqliteDatabase", () => {
  it("creates a file database with WAL, foreign keys, NORMAL sync and 128 MiB of memory-mapped reads", () => {
    const database = openSqliteDatabase({ filename: fileInTempFolder() });
    try {
      expect(database.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(database.pragma("foreign_keys", { simple: true })).toBe(1);
      expect(database.pragma("busy_timeout", { simple: true })).toBe(5000);
      expect(database.pragma("synchronous", { simple: true })).toBe(1); // NORMAL
      expect(database.pragma("mmap_size", { simple: true })).toBe(128 * 1024 * 1024);
    } finally {
      database.close();
    }
  });

  it("maps what mmapSizeBytes says, 0 turning memory-mapped reads off", () => {
    for (const mmapSizeBytes of [0, 4 * 1024 * 1024]) {
      const database = openSqliteDatabase({ filename: fileInTempFolder(), mmapSizeBytes });
      try {
        expect(database.pragma("mmap_size", { simple: true })).toBe(mmapSizeBytes);
      } finally {
        database.close();
      }
    }
  });

  it("refuses a size that is not a whole number of bytes, before creating anything", () => {
    for (const mmapSizeBytes of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => openSqliteDatabase({ filename: fileInTempFolder(), mmapSizeBytes })).toThrow(
        /mmapSizeBytes must be a whole number of bytes/,
      );
    }
  });

  it("leaves an in-memory database unmapped", () => {
    const database = openSqliteDatabase({ filename: ":memory:" });
    try {
      // SQLite answers nothing for an in-memory database, which has no file to map.
      expect(database.pragma("mmap_size", { simple: true }) ?? 0).toBe(0);
    } finally {
      database.close();
    }
  });
});
