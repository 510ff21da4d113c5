import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLruCache, type LruCache } from "../../src/util/lru-cache.js";

/** The candidates still cached. `get` counts as a use, so tests probe with this only at their end. */
function keysOf(cache: LruCache<string, number>, candidates: string[]) {
  return candidates.filter((key) => cache.get(key) !== undefined);
}

describe("createLruCache", () => {
  it("keeps at most `capacity` entries, forgetting the oldest first", () => {
    const cache = createLruCache<string, number>(3);
    for (const [index, key] of ["a", "b", "c", "d", "e"].entries()) cache.set(key, index);
    expect(cache.size).toBe(3);
    expect(keysOf(cache, ["a", "b", "c", "d", "e"])).toEqual(["c", "d", "e"]);
  });

  it("counts a read as a use: the entry read survives and the least recently used one goes", () => {
    const cache = createLruCache<string, number>(3);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.get("a")).toBe(1);
    cache.set("d", 4);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
    expect(cache.get("d")).toBe(4);
  });

  it("counts replacing a value as a use, without growing", () => {
    const cache = createLruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("a", 10);
    expect(cache.size).toBe(2);
    cache.set("c", 3);
    expect(cache.get("a")).toBe(10);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("c")).toBe(3);
  });

  it("does not count a miss as a use, nor store anything for it", () => {
    const cache = createLruCache<string, number>(2);
    cache.set("a", 1);
    expect(cache.get("missing")).toBeUndefined();
    expect(cache.size).toBe(1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(keysOf(cache, ["a", "b", "c"])).toEqual(["b", "c"]);
  });

  it("keeps falsy values (0, empty string, false) as values, not misses", () => {
    const numbers = createLruCache<string, number>(2);
    numbers.set("zero", 0);
    expect(numbers.get("zero")).toBe(0);
    const flags = createLruCache<string, boolean>(2);
    flags.set("no", false);
    expect(flags.get("no")).toBe(false);
  });

  it("caches nothing with a capacity of 0 (or less)", () => {
    for (const capacity of [0, -1]) {
      const cache = createLruCache<string, number>(capacity);
      cache.set("a", 1);
      expect(cache.get("a")).toBeUndefined();
      expect(cache.size).toBe(0);
    }
  });

  it("stays bounded over many distinct keys", () => {
    const cache = createLruCache<number, number>(100);
    for (let key = 0; key < 10_000; key++) cache.set(key, key);
    expect(cache.size).toBe(100);
    expect(cache.get(9_899)).toBeUndefined();
    expect(cache.get(9_900)).toBe(9_900);
    expect(cache.get(9_999)).toBe(9_999);
  });

  it("agrees with a plain list model of LRU over random reads and writes", () => {
    // The model: keys from least to most recently used, in an array; obviously right, and slow.
    const operation = fc.oneof(
      fc.record({ kind: fc.constant("get" as const), key: fc.integer({ min: 0, max: 7 }) }),
      fc.record({
        kind: fc.constant("set" as const),
        key: fc.integer({ min: 0, max: 7 }),
        value: fc.integer(),
      }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(operation, { maxLength: 60 }),
        (capacity, operations) => {
          const cache = createLruCache<number, number>(capacity);
          const model: Array<{ key: number; value: number }> = [];
          for (const op of operations) {
            const at = model.findIndex((entry) => entry.key === op.key);
            if (op.kind === "get") {
              const expected = at === -1 ? undefined : model[at]!.value;
              if (at !== -1) model.push(...model.splice(at, 1));
              expect(cache.get(op.key)).toBe(expected);
            } else {
              if (at !== -1) model.splice(at, 1);
              model.push({ key: op.key, value: op.value });
              if (model.length > capacity) model.shift();
              cache.set(op.key, op.value);
            }
            expect(cache.size).toBe(model.length);
          }
          for (const { key, value } of [...model]) expect(cache.get(key)).toBe(value);
        },
      ),
    );
  });
});
