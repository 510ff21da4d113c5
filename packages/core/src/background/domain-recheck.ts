import type { Logger } from "../logger.js";

/** Options of {@link createDomainRecheckJob}. */
export interface DomainRecheckJobOptions {
  /** Re-checks the verified domains that are due; resolves with how many were checked. */
  recheckDue: () => Promise<number>;
  /** How often to look for due domains, in milliseconds. */
  pollMs: number;
  logger: Logger;
}

/** The periodic DNS re-check of verified sending domains, run by `mailpulse.start()`. */
export interface DomainRecheckJob {
  /** Checks the due domains now, then every `pollMs`. Idempotent. */
  start(): void;
  /** Stops polling and waits for a check in progress. */
  stop(): Promise<void>;
}

/**
 * Builds the {@link DomainRecheckJob}. Polling is cheap (domains are due once per re-check
 * interval, the service picks them), and runs never overlap: a slow DNS server delays the next
 * run instead of stacking lookups. The timer is unref'd so it never keeps a process alive.
 */
export function createDomainRecheckJob({
  recheckDue,
  pollMs,
  logger,
}: DomainRecheckJobOptions): DomainRecheckJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  function run(): void {
    if (running) return;
    running = recheckDue()
      .then(() => undefined)
      .catch((error: unknown) => logger.error("sending-domain re-check failed", error))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    start() {
      if (timer) return;
      run();
      timer = setInterval(run, pollMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
