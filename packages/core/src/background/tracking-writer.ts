import type { TrackingHit } from "../ports/storage.js";
import type { BackgroundJob } from "./background-job.js";

/** Options of {@link createTrackingWriter}. */
export interface TrackingWriterOptions {
  /** Records a batch in one transaction; resolves to the number recorded (`storage.tracking.recordEvents`). */
  record(hits: readonly TrackingHit[]): Promise<number>;
  /** Hits written per transaction at most. */
  batchSize: number;
  /** Hits waiting at most; past it {@link TrackingWriter.queue} waits for room. */
  queueSize: number;
  /**
   * Batches being written at once at most (default 1). More than one pays where a batch's time is
   * mostly a round trip (PostgreSQL: the next batch travels and waits while the previous one runs);
   * SQLite writes on the event loop, so one is all it can use.
   */
  concurrency?: number;
}

/** A hit accepted by the writer. */
export interface QueuedHit {
  /** Settles when the hit's batch has committed, or rejects with the reason it could not be. */
  committed: Promise<void>;
}

/**
 * The tracking write path: a bounded queue drained by group commit. As a background job it needs
 * no start (hits are written as they come, started or not); `stop()` and `runOnce()` both write
 * every hit queued so far, and hits queued after `stop()` are still written.
 */
export interface TrackingWriter extends BackgroundJob {
  /**
   * Queues a hit, waiting while the queue is full (back-pressure: hits are never dropped). The
   * hit is written with everything else queued by then, in one transaction.
   */
  queue(hit: TrackingHit): Promise<QueuedHit>;
  /** Resolves once every hit queued so far is written (or has failed). */
  drain(): Promise<void>;
  /** Hits queued and not yet taken into a batch. */
  readonly queued: number;
}

interface Pending {
  hit: TrackingHit;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Group commit for tracking hits. The first hit queued while a batch slot is free schedules a
 * flush on `setImmediate`, so every hit that arrives in the same turn of the event loop joins it;
 * hits that arrive while every slot is writing form the next batch, taken as soon as one is free.
 * Under load batches grow by themselves and a transaction's cost is shared by all its hits; when
 * idle a lone hit waits for nothing but its own commit.
 *
 * A batch that fails is split in halves and each half retried, down to single hits, so one hit
 * the database refuses costs only itself, never the hits that happened to share its batch.
 */
export function createTrackingWriter(options: TrackingWriterOptions): TrackingWriter {
  const batchSize = Math.max(1, options.batchSize);
  const queueSize = Math.max(batchSize, options.queueSize);
  const concurrency = Math.max(1, options.concurrency ?? 1);
  let pending: Pending[] = [];
  let writing = 0;
  let scheduled = false;
  const waitingForRoom: Array<() => void> = [];
  let idle: { promise: Promise<void>; resolve(): void } | undefined;

  function scheduleFlush(): void {
    if (scheduled || writing >= concurrency) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      flush();
    });
  }

  /** Starts batches while slots are free and hits wait. */
  function flush(): void {
    while (writing < concurrency && pending.length > 0) {
      const batch = pending.length <= batchSize ? pending : pending.slice(0, batchSize);
      pending = batch === pending ? [] : pending.slice(batchSize);
      for (let room = queueSize - pending.length; room > 0 && waitingForRoom.length > 0; room--) {
        waitingForRoom.shift()!();
      }
      writing++;
      void write(batch).finally(() => {
        writing--;
        // Hits queued while this batch was written go at once: they have waited long enough.
        if (pending.length > 0) flush();
        else if (writing === 0 && idle) {
          idle.resolve();
          idle = undefined;
        }
      });
    }
  }

  async function write(batch: Pending[]): Promise<void> {
    try {
      await options.record(batch.map((entry) => entry.hit));
      for (const entry of batch) entry.resolve();
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      const middle = Math.ceil(batch.length / 2);
      await write(batch.slice(0, middle));
      await write(batch.slice(middle));
    }
  }

  async function drain(): Promise<void> {
    while (writing > 0 || pending.length > 0 || scheduled) {
      if (!idle) {
        let resolve!: () => void;
        const promise = new Promise<void>((done) => {
          resolve = done;
        });
        idle = { promise, resolve };
      }
      await idle.promise;
    }
  }

  return {
    name: "tracking writer",
    async start() {},
    runOnce: drain,
    stop: drain,
    async queue(hit) {
      while (pending.length >= queueSize) {
        await new Promise<void>((resolve) => waitingForRoom.push(resolve));
      }
      const committed = new Promise<void>((resolve, reject) => {
        pending.push({ hit, resolve, reject });
      });
      scheduleFlush();
      return { committed };
    },
    drain,
    get queued() {
      return pending.length;
    },
  };
}
