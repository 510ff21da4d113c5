import type { Logger } from "../logger.js";
import type { Clock } from "../ports/clock.js";
import type { IdempotencyStore } from "../ports/storage.js";
import { createPeriodicJob, type PeriodicJob } from "./periodic-job.js";

/**
 * Deletes expired idempotency keys every `everyMs` (default hourly), so the table holds at most a
 * day of keys. Expired keys are ignored on use whether or not this has run; this only bounds the
 * table. Run by `mailpulse.start()`.
 */
export function createIdempotencyPurgeJob(options: {
  keys: Pick<IdempotencyStore, "purgeExpired">;
  clock: Clock;
  logger: Logger;
  everyMs?: number;
}): PeriodicJob {
  return createPeriodicJob({
    name: "idempotency key purge",
    everyMs: options.everyMs ?? 60 * 60 * 1000,
    logger: options.logger,
    run: () => options.keys.purgeExpired(options.clock.now()),
  });
}
