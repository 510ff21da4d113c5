import type { Logger } from "../logger.js";
import type { Clock } from "../ports/clock.js";
import type { InboundMessageStore } from "../ports/storage.js";
import type { BackgroundJob } from "./background-job.js";
import { createPeriodicJob } from "./periodic-job.js";

/**
 * Keeps the inbound log bounded: every `everyMs` (default hourly) deletes the rows older than
 * `retentionMs` and those beyond the newest `maxRows`, whichever bound bites first. Run by
 * `mailpulse.start()` (the first run in the background); `runOnce()` resolves with how many rows
 * it deleted.
 */
export function createInboundLogPurgeJob(options: {
  store: Pick<InboundMessageStore, "purge">;
  clock: Clock;
  logger: Logger;
  retentionMs: number;
  maxRows: number;
  everyMs?: number;
}): BackgroundJob<number> {
  return createPeriodicJob({
    name: "inbound log purge",
    everyMs: options.everyMs ?? 60 * 60 * 1000,
    logger: options.logger,
    run: () =>
      options.store.purge({
        receivedBefore: new Date(options.clock.now().getTime() - options.retentionMs),
        keepNewest: options.maxRows,
      }),
  });
}
