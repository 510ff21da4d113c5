/**
 * The one shape of everything in `background/` (DESIGN: the tracking path and background work):
 * a job `mailpulse.start()` starts and `mailpulse.stop()` stops, through the job registry
 * (`job-registry.ts`). Time is read from the injected `Clock`, never from `Date.now()`, so tests
 * move it by hand.
 */
export interface BackgroundJob<Result = void> {
  /** Names the job in log lines and in the error of a failed `stop()`, e.g. `webhook delivery worker`. */
  readonly name: string;
  /**
   * Starts the job's own schedule. Idempotent, and a stopped job stays stopped (its runs would
   * outlive the `stop()` that released what they use). Resolves when the job is started; each job
   * says whether that includes its first run.
   */
  start(): Promise<void>;
  /**
   * Stops the schedule and waits for the work under way (a run in progress, hits still queued).
   * Idempotent.
   */
  stop(): Promise<void>;
  /**
   * Does the job's work once, now, whether or not it is started; resolves with what it did (how
   * many rows, say). What `start()` runs on its schedule, and what tests call with a hand-moved
   * clock. Rejects with the run's error (the schedule only logs it).
   */
  runOnce(): Promise<Result>;
}
