import type BetterSqlite3 from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/**
 * Kysely's SQLite driver calls `prepare` for every query it runs, and better-sqlite3 compiles the
 * SQL anew each time: on the tracking path that was a tenth of the server's CPU. The SQL of
 * MailPulse's queries is a small, mostly fixed set (the hit writer's batch statements are compiled
 * once by the writer itself, `record-hits.ts`), so keeping the compiled statements by their text
 * removes the cost.
 *
 * Bounded (least recently used goes first), so queries whose text varies cannot grow it without
 * limit. A statement still being iterated (a stream in progress) is never handed out twice:
 * better-sqlite3 refuses to run a busy statement, so that caller gets a fresh one instead.
 */
export function withStatementCache(database: BetterSqlite3.Database, capacity: number): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close() {
      statements.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql);
      if (cached !== undefined) {
        if (cached.busy) return database.prepare(sql);
        // Re-inserting moves it to the most recently used end of the Map's order.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > capacity) statements.delete(statements.keys().next().value as string);
      return statement;
    },
  };
}
