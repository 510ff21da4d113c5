import type { Logger } from "../logger.js";
import type { BackgroundJob } from "./background-job.js";
import { createPeriodicJob } from "./periodic-job.js";

/** Options of {@link createDomainRecheckJob}. */
export interface DomainRecheckJobOptions {
  /** Re-checks the verified domains that are due; resolves with how many were checked. */
  recheckDue: () => Promise<number>;
  /** How often to look for due domains, in milliseconds. */
  pollMs: number;
  logger: Logger;
}

/**
 * The periodic DNS re-check of verified sending domains, run by `mailpulse.start()`: checks the
 * due domains at once, then `pollMs` after each check; `runOnce()` resolves with how many were
 * checked. `start()` does not wait for the first check (a slow DNS server must not hold up the
 * host's start); `stop()` does. Polling is cheap (domains are due once per re-check interval, the
 * service picks them), and checks never overlap: a slow DNS server delays the next check instead
 * of stacking lookups.
 */
export function createDomainRecheckJob({
  recheckDue,
  pollMs,
  logger,
}: DomainRecheckJobOptions): BackgroundJob<number> {
  return createPeriodicJob({ name: "sending-domain re-check", run: recheckDue, everyMs: pollMs, logger });
}
