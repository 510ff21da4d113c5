/** A bounded map that forgets its least recently used entry when full. */
export interface LruCache<K, V> {
  /** The value, marking it most recently used; `undefined` when absent. */
  get(key: K): V | undefined;
  /** Adds or replaces the value, evicting the least recently used entry past the capacity. */
  set(key: K, value: V): void;
  readonly size: number;
}

/**
 * An LRU cache on a `Map`, whose iteration order is insertion order: re-inserting on every read
 * keeps the least recently used entry first, so eviction is one `keys().next()`. A capacity of 0
 * caches nothing.
 */
export function createLruCache<K, V>(capacity: number): LruCache<K, V> {
  const entries = new Map<K, V>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key, value) {
      if (capacity <= 0) return;
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as K);
    },
    get size() {
      return entries.size;
    },
  };
}
