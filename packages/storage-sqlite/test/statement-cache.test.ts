import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { withStatementCache } from "../src/statement-cache.js";

let database: Database.Database;
afterEach(() => {
  if (database.open) database.close();
});

function setup(capacity: number) {
  database = new Database(":memory:");
  database.exec("create table t (n integer)");
  let prepared = 0;
  const counting = new Proxy(database, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          prepared++;
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { cache: withStatementCache(counting, capacity), prepared: () => prepared };
}

describe("withStatementCache", () => {
  it("compiles each SQL text once and reuses the statement", () => {
    const { cache, prepared } = setup(4);
    for (let n = 0; n < 3; n++) cache.prepare("insert into t (n) values (?)").run([n]);
    expect(prepared()).toBe(1);
    expect(cache.prepare("select count(*) as c from t").all([])).toEqual([{ c: 3 }]);
    expect(prepared()).toBe(2);
  });

  it("keeps at most `capacity` statements, dropping the least recently used", () => {
    const { cache, prepared } = setup(2);
    cache.prepare("select 1");
    cache.prepare("select 2");
    cache.prepare("select 1"); // now most recently used
    cache.prepare("select 3"); // evicts "select 2"
    expect(prepared()).toBe(3);
    cache.prepare("select 1");
    expect(prepared()).toBe(3);
    cache.prepare("select 2");
    expect(prepared()).toBe(4);
  });

  it("hands out a fresh statement while the cached one is still being iterated", () => {
    const { cache } = setup(4);
    for (let n = 0; n < 3; n++) cache.prepare("insert into t (n) values (?)").run([n]);
    const sql = "select n from t order by n";
    const outer = cache.prepare(sql).iterate([]) as IterableIterator<{ n: number }>;
    expect(outer.next().value).toEqual({ n: 0 });
    // Without the busy check better-sqlite3 throws "This statement is busy executing a query".
    expect(cache.prepare(sql).all([])).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    expect([...outer]).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("closes the database", () => {
    const { cache } = setup(4);
    cache.prepare("select 1");
    cache.close();
    expect(database.open).toBe(false);
  });
});
