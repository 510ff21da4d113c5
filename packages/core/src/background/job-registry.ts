/**
 * What the registry starts and stops: a `BackgroundJob` (`background-job.ts`), or something that only needs
 * releasing when the instance stops (work in flight to wait for, a pool to close).
 */
export interface RegisteredJob {
  /** Names it in the error of a failed `stop()`. */
  readonly name: string;
  /** Starts it; absent for what only needs releasing. */
  start?(): Promise<void> | void;
  /** Stops or releases it, waiting for the work under way. */
  stop(): Promise<void> | void;
}

/** Starts and stops the background jobs of one instance, behind `mailpulse.start()`/`stop()`. */
export interface JobRegistry {
  /**
   * Starts the jobs in the order given, awaiting each. A stopped registry stays stopped: after
   * `stop()` this does nothing. Jobs' own `start()` is idempotent, so calling it again is harmless.
   */
  start(): Promise<void>;
  /**
   * Stops the jobs in the reverse of the order given, awaiting each, so a job stops only once
   * everything started after it (and so possibly relying on it) has stopped. A job whose stop
   * fails does not keep the others running: every job is stopped, then the promise rejects with
   * the one error, or an `AggregateError` of all of them (in stop order) when several failed.
   * Idempotent: later calls return the first call's promise.
   */
  stop(): Promise<void>;
  /** Whether `stop()` has been called. */
  readonly stopped: boolean;
}

/**
 * Builds a {@link JobRegistry} over `jobs`, listed in start order: what the others need first,
 * so that reversed it is the order in which a shutdown must release them.
 */
export function createJobRegistry(jobs: readonly RegisteredJob[]): JobRegistry {
  let stopping: Promise<void> | undefined;

  async function stopAll(): Promise<void> {
    const failures: { name: string; error: unknown }[] = [];
    for (const job of [...jobs].reverse()) {
      try {
        await job.stop();
      } catch (error) {
        failures.push({ name: job.name, error });
      }
    }
    // One failure keeps its own error, as it was before there was a registry to collect them.
    if (failures.length === 1) throw failures[0]!.error;
    if (failures.length > 1) {
      throw new AggregateError(
        failures.map((failure) => failure.error),
        `MailPulse: ${failures.length} background jobs failed to stop: ${failures.map((failure) => failure.name).join(", ")}`,
      );
    }
  }

  return {
    async start() {
      for (const job of jobs) {
        if (stopping) return;
        await job.start?.();
      }
    },
    stop() {
      stopping ??= stopAll();
      return stopping;
    },
    get stopped() {
      return stopping !== undefined;
    },
  };
}
