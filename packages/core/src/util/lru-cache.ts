/** A bounded map that forgets its least recently used entry when full. */
export interface LruCache<K, V> {
  /** The value, marking it most recently used; `undefined` when absent. */
  get(key: K): V | undefined;
  /** Adds or replaces the value, evicting the least recently used entry past the capacity. */
  set(key: K, value: V): void;
  readonly size: number;
}

interface Entry<K, V> {
  key: K;
  value: V;
  /** Toward the least recently used end; `undefined` for the oldest entry. */
  older: Entry<K, V> | undefined;
  /** Toward the most recently used end; `undefined` for the newest entry. */
  newer: Entry<K, V> | undefined;
}

/**
 * An LRU cache: a `Map` from key to entry, and the entries in a doubly linked list from least to
 * most recently used. A read only relinks its entry (and not at all when it is already the newest).
 *
 * Why not a bare `Map` re-inserted on every read (its iteration order is insertion order): every
 * tracking hit reads two of these caches, and a `delete` plus `set` on a map of thousands of keys
 * cost about a microsecond a read in the profile of the pixel route (bench/RESULTS.md), most of
 * it hashing twice and rehashing away the deleted slots. A capacity of 0 caches nothing.
 */
export function createLruCache<K, V>(capacity: number): LruCache<K, V> {
  const entries = new Map<K, Entry<K, V>>();
  let oldest: Entry<K, V> | undefined;
  let newest: Entry<K, V> | undefined;

  function unlink(entry: Entry<K, V>): void {
    if (entry.older) entry.older.newer = entry.newer;
    else oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else newest = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }

  function append(entry: Entry<K, V>): void {
    entry.older = newest;
    if (newest) newest.newer = entry;
    else oldest = entry;
    newest = entry;
  }

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry !== newest) {
        unlink(entry);
        append(entry);
      }
      return entry.value;
    },
    set(key, value) {
      if (capacity <= 0) return;
      const existing = entries.get(key);
      if (existing !== undefined) {
        existing.value = value;
        if (existing !== newest) {
          unlink(existing);
          append(existing);
        }
        return;
      }
      const entry: Entry<K, V> = { key, value, older: undefined, newer: undefined };
      entries.set(key, entry);
      append(entry);
      if (entries.size > capacity && oldest !== undefined) {
        entries.delete(oldest.key);
        unlink(oldest);
      }
    },
    get size() {
      return entries.size;
    },
  };
}
