import type { TrackingHit } from "../ports/storage.js";

/** Options of {@link createTrackingWriter}. */
export interface TrackingWriterOptions {
  /** Records a batch in one transaction; resolves to the number recorded (`storage.tracking.recordEvents`). */
  record(hits: readonly TrackingHit[]): Promise<number>;
  /** Hits written per transaction at most. */
  batchSize: number;
  /** Hits waiting at most; past it {@link TrackingWriter.queue} waits for room. */
  queueSize: number;
}

/** A hit accepted by the writer. */
export interface QueuedHit {
  /** Settles when the hit's batch has committed, or rejects with the reason it could not be. */
  committed: Promise<void>;
}

/** The tracking write path: a bounded queue drained by group commit. */
export interface TrackingWriter {
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
 * Group commit for tracking hits. The first hit queued while the writer is idle schedules a flush
 * on `setImmediate`, so every hit that arrives in the same turn of the event loop joins it; hits
 * that arrive while a batch is being written form the next one. Under load batches grow by
 * themselves and a transaction's cost is shared by all its hits; when idle a lone hit waits for
 * nothing but its own commit.
 *
 * A batch that fails is split in halves and each half retried, down to single hits, so one hit
 * the database refuses costs only itself, never the hits that happened to share its batch.
 */
export function createTrackingWriter(options: TrackingWriterOptions): TrackingWriter {
  const batchSize = Math.max(1, options.batchSize);
  const queueSize = Math.max(batchSize, options.queueSize);
  let pending: Pending[] = [];
  let flushing: Promise<void> | undefined;
  const waitingForRoom: Array<() => void> = [];

  function scheduleFlush(): void {
    if (flushing) return;
    flushing = new Promise<void>((resolve) => setImmediate(resolve)).then(flush).finally(() => {
      flushing = undefined;
      // Hits queued after the last batch was taken, while its transaction was finishing.
      if (pending.length > 0) scheduleFlush();
    });
  }

  async function flush(): Promise<void> {
    while (pending.length > 0) {
      const batch = pending.length <= batchSize ? pending : pending.slice(0, batchSize);
      pending = batch === pending ? [] : pending.slice(batchSize);
      for (let room = queueSize - pending.length; room > 0 && waitingForRoom.length > 0; room--) {
        waitingForRoom.shift()!();
      }
      await write(batch);
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

  return {
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
    async drain() {
      while (flushing) await flushing;
    },
    get queued() {
      return pending.length;
    },
  };
}
