/**
 * When a periodic job's next run happens. Separate from the `Clock` port, which only says what
 * time it is: a job reads the time from the clock and waits through the scheduler, so a test can
 * replace either.
 */
export interface Scheduler {
  /** Calls `callback` once, `ms` milliseconds from now; returns what cancels the call. */
  after(ms: number, callback: () => void): () => void;
}

/**
 * The default {@link Scheduler}: Node's `setTimeout`, unref'd, so a pending run never keeps the
 * host process alive (a host that exits without `stop()` is not held open by MailPulse).
 */
export const unrefScheduler: Scheduler = {
  after(ms, callback) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};
