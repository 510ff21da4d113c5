import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type BetterSqlite3 from "better-sqlite3";

/** Options of {@link startBackgroundCheckpoint}. */
export interface BackgroundCheckpointOptions {
  /** Pause between two checkpoints, in milliseconds. */
  intervalMs: number;
  /**
   * Write-ahead log size, in pages, past which the checkpoint waits for the writer to pause and
   * resets the log (a `RESTART` checkpoint), so a log never grows without bound under a load with
   * no pause at all. Below it, checkpoints never make the writer wait (`PASSIVE`).
   */
  restartAfterPages: number;
}

/** A running background checkpoint. */
export interface BackgroundCheckpoint {
  /** Runs a last checkpoint, closes the worker's connection and ends the worker. */
  close(): Promise<void>;
}

/**
 * Before a restart, up to this many more `PASSIVE` checkpoints, each copying what the writer added
 * during the one before, until one finds fewer than {@link caughtUpPages} new pages. A checkpoint
 * takes 10-18 ms under load, so the next one finds tens or hundreds of pages where the first found
 * thousands, and the restart, which holds the writer while it copies the rest, finds only those:
 * the writer waits under 5 ms at about half the restarts and 18-35 ms at the others, against
 * 33-54 ms at every restart without them (bench/RESULTS.md).
 */
const catchUpPasses = 3;
/** 1 MB of 4 KB pages: a copy of a few milliseconds at most, fsync included. */
const caughtUpPages = 256;

/**
 * Runs in the worker (plain JavaScript, so neither a build step nor a TypeScript loader is needed):
 * its own connection to the file, checkpointing on a timer until told to close.
 */
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.filename);
db.pragma("busy_timeout = 5000");
let timer;
function checkpoint() {
  let [result] = db.pragma("wal_checkpoint(PASSIVE)");
  if (!result || result.log < workerData.restartAfterPages) return;
  // The restart holds the writer while it copies what no checkpoint has yet: catch up first.
  for (let pass = 0; pass < workerData.catchUpPasses; pass++) {
    const before = result.log;
    [result] = db.pragma("wal_checkpoint(PASSIVE)");
    if (result.log - before < workerData.caughtUpPages) break;
  }
  db.pragma("wal_checkpoint(RESTART)");
}
function tick() {
  try {
    checkpoint();
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message || error) });
    return;
  }
  timer = setTimeout(tick, workerData.intervalMs);
}
timer = setTimeout(tick, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "close") return;
  clearTimeout(timer);
  try { checkpoint(); } catch {}
  db.close();
  parentPort.postMessage({ closed: true });
});
`;

/**
 * Moves SQLite's write-ahead log checkpoints off the event loop. By default SQLite checkpoints
 * inside the commit that fills the log past 1,000 pages: that commit then copies every page to the
 * database file and waits for the disk, and every tracking request waiting on it waits too
 * (bench/RESULTS.md: +35% throughput, p99 halved without those checkpoints). Here the connection's
 * automatic checkpoints are off and a worker thread with its own connection checkpoints every
 * `intervalMs`.
 *
 * If the worker fails, the connection's automatic checkpoints are turned back on (and a process
 * warning says why), so the log never grows unchecked.
 */
export function startBackgroundCheckpoint(
  database: BetterSqlite3.Database,
  options: BackgroundCheckpointOptions,
): BackgroundCheckpoint {
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve("better-sqlite3"),
      filename: database.name,
      intervalMs: options.intervalMs,
      restartAfterPages: options.restartAfterPages,
      catchUpPasses,
      caughtUpPages,
    },
  });
  database.pragma("wal_autocheckpoint = 0");
  let running = true;
  const fallBack = (reason: string) => {
    if (!running) return;
    running = false;
    if (database.open) database.pragma("wal_autocheckpoint = 1000");
    process.emitWarning(
      `MailPulse: the SQLite background checkpoint stopped (${reason}); checkpoints run on commit again`,
    );
    void worker.terminate();
  };
  const closed = new Promise<void>((resolve) => {
    worker.on("message", (message: { failed?: string; closed?: boolean }) => {
      if (message.closed) {
        resolve();
        void worker.terminate();
      } else if (message.failed) fallBack(message.failed);
    });
    worker.on("error", (error) => fallBack(error.message));
    worker.on("exit", () => {
      fallBack("its worker exited");
      resolve();
    });
  });
  // A checkpointer alone must not keep the host's process alive (a script that stops MailPulse
  // and forgets `storage.close()` must still exit). After the listeners: adding a `message`
  // listener refs the worker's port again, so an earlier unref() was undone.
  worker.unref();
  return {
    async close() {
      if (running) {
        running = false;
        // Waited for now: keep the process alive until the worker's last checkpoint answers.
        worker.ref();
        worker.postMessage("close");
      }
      await closed;
    },
  };
}
