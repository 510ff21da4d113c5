/**
 * Coalesces lookups by key: every `load(key)` made in the same turn of the event loop is answered
 * by one `loadMany` call (at most `maxBatch` keys each), and concurrent loads of one key share a
 * single request. A burst of cold tracking ids after a deploy then costs one query per turn, not
 * one per hit, which on a networked database is the difference between a round trip per hit and a
 * round trip per batch.
 */
export function createBatchLoader<V>(
  loadMany: (keys: readonly string[]) => Promise<ReadonlyMap<string, V>>,
  maxBatch = 500,
): (key: string) => Promise<V | undefined> {
  let waiting = new Map<
    string,
    Array<{ resolve(value: V | undefined): void; reject(error: unknown): void }>
  >();
  let scheduled = false;

  function dispatch(): void {
    scheduled = false;
    const batch = waiting;
    waiting = new Map();
    const keys = [...batch.keys()];
    for (let start = 0; start < keys.length; start += maxBatch) {
      const chunk = keys.slice(start, start + maxBatch);
      loadMany(chunk).then(
        (found) => {
          for (const key of chunk) for (const waiter of batch.get(key)!) waiter.resolve(found.get(key));
        },
        (error: unknown) => {
          for (const key of chunk) for (const waiter of batch.get(key)!) waiter.reject(error);
        },
      );
    }
  }

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      const waiters = waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      if (!scheduled) {
        scheduled = true;
        setImmediate(dispatch);
      }
    });
}
