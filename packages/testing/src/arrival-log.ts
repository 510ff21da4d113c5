/**
 * What a test peer received, in arrival order, and the tests waiting for a number of arrivals:
 * the part the SMTP test server and the HTTPS test receiver share.
 */
export interface ArrivalLog<T> {
  /** Everything received so far, in arrival order (the peer's public `messages`/`requests`). */
  readonly items: T[];
  /** Records one arrival and resolves the waiters it satisfies. */
  add(item: T): void;
  /**
   * Resolves with a copy of every item so far once there are at least `count`; rejects after
   * `timeoutMs` (default 5000) with `Expected <count> <noun>(s) within <timeoutMs> ms, received <n>`.
   */
  waitFor(count: number, timeoutMs?: number): Promise<T[]>;
  /** Rejects every pending waiter with `error` (the peer is closing). */
  rejectWaiters(error: Error): void;
}

interface Waiter<T> {
  count: number;
  resolve: (items: T[]) => void;
  reject: (error: Error) => void;
}

/** An empty {@link ArrivalLog}; `noun` names one item in the timeout message, e.g. `"request"`. */
export function createArrivalLog<T>(noun: string): ArrivalLog<T> {
  const items: T[] = [];
  const waiters = new Set<Waiter<T>>();

  const settleWaiters = (): void => {
    for (const waiter of waiters) {
      if (items.length >= waiter.count) {
        waiters.delete(waiter);
        waiter.resolve([...items]);
      }
    }
  };

  return {
    items,
    add(item) {
      items.push(item);
      settleWaiters();
    },
    waitFor(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`Expected ${count} ${noun}(s) within ${timeoutMs} ms, received ${items.length}`));
        }, timeoutMs);
        const waiter: Waiter<T> = {
          count,
          resolve: (received) => {
            clearTimeout(timer);
            resolve(received);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        waiters.add(waiter);
        settleWaiters();
      });
    },
    rejectWaiters(error) {
      for (const waiter of waiters) waiter.reject(error);
      waiters.clear();
    },
  };
}
