import type { OutboxEvent, Storage, TrackingEventRecord } from "../../ports/storage.js";

/**
 * Where tracking events go. One small interface so the write path can change (batched,
 * asynchronous) without touching the endpoints.
 */
export interface TrackingEventWriter {
  /** Persists the event with its rollups and webhook outbox rows. */
  write(event: TrackingEventRecord, webhookEvent?: OutboxEvent): Promise<void>;
  /** Writes whatever is buffered. */
  flush(): Promise<void>;
}

/** Writes each event in its own transaction before the response is sent. */
export function createDirectEventWriter(storage: Storage): TrackingEventWriter {
  return {
    write: (event, webhookEvent) => storage.tracking.recordEvent(event, webhookEvent),
    flush: async () => {},
  };
}
