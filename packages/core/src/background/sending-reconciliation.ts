import type { Logger } from "../logger.js";
import type { Clock } from "../ports/clock.js";
import type { EmailStore } from "../ports/storage.js";
import type { BackgroundJob } from "./background-job.js";
import { createPeriodicJob } from "./periodic-job.js";

/** Options of {@link createSendingReconciliationJob}. */
export interface SendingReconciliationOptions {
  emails: Pick<EmailStore, "markStaleSendingUnknown">;
  /** A `sending` email older than this was abandoned by a process that stopped (crash, kill -9). */
  staleAfterMs: number;
  clock: Clock;
  logger: Logger;
}

/**
 * Crash reconciliation. An email is `sending` from just before the provider gets it until its
 * answer is recorded; a process killed in between leaves it `sending` for ever, perhaps delivered,
 * uncounted, its opens ignored. This job, run by `mailpulse.start()` and then every minute (or
 * `staleAfterMs`, if shorter), turns emails `sending` for longer than `staleAfterMs` into
 * `unknown`: counted and tracked like `sent`, and shown as `unknown` by `GET /api/emails/:id`.
 * `start()` resolves once the first pass is over; `runOnce()` resolves with how many it turned.
 * `staleAfterMs` must exceed the longest a live send can take, since several processes may share
 * the database: one cannot tell another's send in flight from a dead one's, only its age.
 */
export function createSendingReconciliationJob(options: SendingReconciliationOptions): BackgroundJob<number> {
  const { emails, staleAfterMs, clock, logger } = options;
  return createPeriodicJob({
    name: "sending reconciliation",
    everyMs: Math.max(1000, Math.min(staleAfterMs, 60_000)),
    logger,
    awaitFirstRun: true,
    async run() {
      const cutoff = new Date(clock.now().getTime() - staleAfterMs);
      const reconciled = await emails.markStaleSendingUnknown(cutoff);
      if (reconciled > 0) {
        logger.info(
          `MailPulse: ${reconciled} email(s) left "sending" by a stopped process are now "unknown" (they may have been delivered)`,
        );
      }
      return reconciled;
    },
  });
}
