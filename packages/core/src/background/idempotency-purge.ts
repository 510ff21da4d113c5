import type { Logger } from "../logger.js";
import type { Clock } from "../ports/clock.js";
import type { IdempotencyStore } from "../ports/storage.js";
import type { BackgroundJob } from "./background-job.js";
import { createPeriodicJob } from "./periodic-job.js";

/**
 * Deletes expired idempotency keys every `everyMs` (default hourly), so the table holds at most a
 * day of keys. Expired keys are ignored on use whether or not this has run; this only bounds the
 * table. Run by `mailpulse.start()`, whose promise waits for the first purge; `runOnce()`
 * resolves with how many keys it deleted.
 */
export function createIdempotencyPurgeJob(options: {
  keys: Pick<IdempotencyStore, "purgeExpired">;
  clock: Clock;
  logger: Logger;
  everyMs?: number;
}): BackgroundJob<number> {
  return createPeriodicJob({
    name: "idempotency key purge",
    everyMs: options.everyMs ?? 60 * 60 * 1000,
    logger: options.logger,
    awaitFirstRun: true,
    run: () => options.keys.purgeExpired(options.clock.now()),
  });
}
