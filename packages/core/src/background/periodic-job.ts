import type { Logger } from "../logger.js";

/** Options of {@link createPeriodicJob}. */
export interface PeriodicJobOptions {
  /** What the job does once; its rejection is logged and the next run happens all the same. */
  run: () => Promise<unknown>;
  /** Milliseconds between runs. */
  everyMs: number;
  /** Named in the log line of a failed run, e.g. `sending reconciliation`. */
  name: string;
  logger: Logger;
}

/** A job `mailpulse.start()` runs now and then periodically. */
export interface PeriodicJob {
  /** Runs once now and then every `everyMs`; resolves when the first run is over. Idempotent. */
  start(): Promise<void>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Builds a {@link PeriodicJob}. Runs never overlap (a slow database delays the next run instead of
 * stacking them) and the timer is unref'd, so it never keeps a process alive.
 */
export function createPeriodicJob({ run, everyMs, name, logger }: PeriodicJobOptions): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  function runOnce(): Promise<void> {
    running ??= run()
      .then(() => undefined)
      .catch((error: unknown) => logger.error(`MailPulse: ${name} failed`, error))
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    async start() {
      if (timer) return;
      timer = setInterval(runOnce, everyMs);
      timer.unref();
      await runOnce();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
