/** Work under way that a shutdown waits for. */
export interface InFlight {
  /** Runs `work`, counted as in flight until the promise it returns settles; returns that promise. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Resolves once nothing is in flight: what runs now has settled, and so has anything started
   * while waiting. Never rejects; the work's own callers see its errors.
   */
  settled(): Promise<void>;
}

/** Builds an {@link InFlight} tracker. */
export function createInFlight(): InFlight {
  const running = new Set<Promise<unknown>>();
  return {
    run(work) {
      const promise = work();
      const tracked = promise.then(
        () => undefined,
        () => undefined,
      );
      running.add(tracked);
      void tracked.then(() => running.delete(tracked));
      return promise;
    },
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
