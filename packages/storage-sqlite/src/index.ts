/**
 * `@mailpulse/storage-sqlite`: MailPulse storage on SQLite through better-sqlite3.
 */
import type { Storage } from "@mailpulse/core";
import { createKyselyStorage, type MailPulseDatabase } from "@mailpulse/core/kysely";
import { Kysely, SqliteDialect } from "kysely";
import { startBackgroundCheckpoint } from "./background-checkpoint.js";
import { openSqliteDatabase } from "./open-database.js";
import { sqliteMailPulseDialect } from "./sqlite-dialect.js";
import { withStatementCache } from "./statement-cache.js";

export { type SqliteMailPulseDialectOptions, sqliteMailPulseDialect } from "./sqlite-dialect.js";

/**
 * Background checkpoints every 100 ms: while writes pause now and then, the log resets on its own
 * and stays a few MB. Under a load that never pauses it does not (a checkpoint never catches up
 * with the writer), and resetting it means holding the writer for one last copy, in which every
 * tracking request waits. Past 64 MB that happened every 0.7 s at 20,000 hits a second and set the
 * p99; past 256 MB (65,536 pages of 4 KB) it happens a quarter as often, and checkpoints catching
 * up first keep the copy short (bench/RESULTS.md has the measurements). The price is disk: the log
 * file keeps its largest size.
 */
const checkpointOptions = { intervalMs: 100, restartAfterPages: 65_536 };

/** Compiled statements kept per database; MailPulse runs a few dozen distinct queries. */
const statementCacheSize = 256;

/** Options of {@link sqliteStorage}. */
export interface SqliteStorageOptions {
  /** Database file, or `:memory:` for a private in-memory database (tests). */
  filename: string;
  /**
   * Where write-ahead log checkpoints run. `background` (the default for a file): a worker thread
   * with its own connection, every 100 ms, so no commit, and no tracking request waiting on one,
   * stalls while pages are copied to the file. `on-commit`: SQLite's own default, inside the commit
   * that fills the log past 1,000 pages. An in-memory database has no log.
   */
  checkpoints?: "background" | "on-commit";
  /**
   * Bytes of the database file SQLite reads through a memory map (`PRAGMA mmap_size`); default
   * 128 MiB, `0` reads with system calls only. Ignored for `:memory:`.
   */
  mmapSizeBytes?: number;
}

/**
 * Opens (creating the folder and file when missing) a SQLite database for MailPulse.
 * WAL mode lets the tracking endpoints read while a write is in progress; foreign keys are on
 * so deletions cascade. Call `await storage.migrate()` before use.
 */
export function sqliteStorage(options: SqliteStorageOptions): Storage {
  const database = openSqliteDatabase(options);
  const cached = withStatementCache(database, statementCacheSize);
  const db = new Kysely<MailPulseDatabase>({ dialect: new SqliteDialect({ database: cached }) });
  const checkpoint =
    (options.checkpoints ?? "background") === "background" && !database.memory
      ? startBackgroundCheckpoint(database, checkpointOptions)
      : undefined;
  const storage = createKyselyStorage({
    db,
    dialect: sqliteMailPulseDialect({ database: cached }),
    // The raw database, not the statement-cached wrapper: rate-limiter-flexible prepares its own.
    rateLimitBackend: { kind: "better-sqlite3", database },
  });
  if (!checkpoint) return storage;
  return {
    ...storage,
    async close() {
      // The worker's connection first: closing the last connection checkpoints the whole log.
      await checkpoint.close();
      await storage.close();
    },
  };
}
