import type { Logger } from "../logger.js";
import type { BackgroundJob } from "./background-job.js";
import { type Scheduler, unrefScheduler } from "./scheduler.js";

/** Options of {@link createPeriodicJob}. */
export interface PeriodicJobOptions<Result> {
  /** Named in the log line of a failed run, e.g. `sending reconciliation`. */
  name: string;
  /** What the job does once; a rejection of a scheduled run is logged and the next run happens all the same. */
  run: () => Promise<Result>;
  /** Milliseconds from the end of one run to the start of the next. */
  everyMs: number;
  logger: Logger;
  /**
   * Whether `start()` resolves only once the first run is over (default `false`: it resolves at
   * once and the first run goes on in the background). `true` where the caller relies on what the
   * first run does, e.g. crash reconciliation, whose first pass `mailpulse.start()` promises.
   */
  awaitFirstRun?: boolean;
  /** Default: {@link unrefScheduler} (unref'd timers: a pending run never holds the process open). */
  scheduler?: Scheduler;
}

/**
 * Builds a {@link BackgroundJob} that runs `run` at `start()` and then `everyMs` after each run
 * ends. Runs never overlap, scheduled or called through `runOnce()`: a call while a run is under
 * way shares that run, so a slow database or DNS server delays the next run instead of stacking
 * them. `stop()` cancels the next run and waits for the one under way.
 */
export function createPeriodicJob<Result>(options: PeriodicJobOptions<Result>): BackgroundJob<Result> {
  const { name, run, everyMs, logger } = options;
  const scheduler = options.scheduler ?? unrefScheduler;
  let started = false;
  let stopped = false;
  let cancelNext: (() => void) | undefined;
  let running: Promise<Result> | undefined;

  function runOnce(): Promise<Result> {
    if (!running) {
      // Async so that a `run` that throws at once rejects like one that fails later.
      const current = (async () => run())().finally(() => {
        if (running === current) running = undefined;
      });
      running = current;
    }
    return running;
  }

  async function tick(): Promise<void> {
    cancelNext = undefined;
    await runOnce().catch((error: unknown) => logger.error(`MailPulse: ${name} failed`, error));
    if (!stopped) cancelNext = scheduler.after(everyMs, () => void tick());
  }

  return {
    name,
    async start() {
      if (started || stopped) return;
      started = true;
      const first = tick();
      if (options.awaitFirstRun) await first;
    },
    runOnce,
    async stop() {
      stopped = true;
      cancelNext?.();
      cancelNext = undefined;
      // The run's error was logged by the schedule (or reached whoever called runOnce()).
      await running?.catch(() => undefined);
    },
  };
}
