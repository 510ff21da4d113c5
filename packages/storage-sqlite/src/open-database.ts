import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";

/** What {@link openSqliteDatabase} reads of `SqliteStorageOptions`. */
export interface SqliteConnectionOptions {
  filename: string;
  mmapSizeBytes?: number;
}

/**
 * Memory-mapped reads: a page a statement reads is then a memory access instead of a `pread` into
 * SQLite's page cache, which took about a quarter of the tracking write's time on a file
 * (bench/RESULTS.md). Rails 8 ships the same 128 MiB default. The map is address space backed by
 * the file, not memory the process allocates; SQLite maps at most the file's size.
 */
const defaultMmapSizeBytes = 128 * 1024 * 1024;

/**
 * Opens MailPulse's connection (creating the file and its missing folders, except for `:memory:`
 * and `file:` URIs) with the settings docs/storage.md lists: WAL, foreign keys, a 5 s busy
 * timeout, `synchronous = NORMAL` and, for a file, memory-mapped reads.
 */
export function openSqliteDatabase(options: SqliteConnectionOptions): Database.Database {
  const mmapSizeBytes = options.mmapSizeBytes ?? defaultMmapSizeBytes;
  if (!Number.isSafeInteger(mmapSizeBytes) || mmapSizeBytes < 0) {
    throw new TypeError(
      `sqliteStorage: mmapSizeBytes must be a whole number of bytes, 0 or more (got ${String(options.mmapSizeBytes)})`,
    );
  }
  if (options.filename !== ":memory:" && !options.filename.startsWith("file:")) {
    mkdirSync(dirname(options.filename), { recursive: true });
  }
  const database = new Database(options.filename);
  database.pragma("journal_mode = WAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  database.pragma("synchronous = NORMAL");
  if (!database.memory) database.pragma(`mmap_size = ${mmapSizeBytes}`);
  return database;
}
