/**
 * `@mailpulse/storage-sqlite/testing`: a MailPulse for a host app's tests in one call, on a fresh
 * in-memory SQLite database. Needs no test framework; works with vitest, node:test, jest.
 *
 * ```ts
 * const { mailpulse, outbox, clock, open, click, close } = await createTestMailPulse();
 * ```
 */
import {
  createTestMailPulse as createWithStorage,
  type TestMailPulse,
  type TestMailPulseOptions,
} from "@mailpulse/testing";
import { sqliteStorage } from "./index.js";

export type {
  LoggedLine,
  OutboxLink,
  OutboxMessage,
  TestClock,
  TestLogger,
  TestMailPulse,
  TestOutbox,
  TestVisitor,
} from "@mailpulse/testing";

/** Options of {@link createTestMailPulse}: `@mailpulse/testing`'s, with the storage made for you. */
export type SqliteTestMailPulseOptions = Omit<TestMailPulseOptions, "storage">;

/**
 * A migrated, private in-memory SQLite database and a MailPulse on it, wired for tests: captured
 * mail (`outbox`, with tracking ids and link URLs), one shared test clock, a quiet logger that
 * keeps its lines, and `open`/`click` helpers that go through the real tracking endpoints. Each
 * call is isolated from every other. `close()` stops the instance and drops the database.
 * Options are `createMailPulse`'s (`baseUrl` defaults to `https://mailpulse.test`), plus `now`
 * (where the clock starts) and `fail` (make the provider refuse a message).
 */
export async function createTestMailPulse(options: SqliteTestMailPulseOptions = {}): Promise<TestMailPulse> {
  const storage = sqliteStorage({ filename: ":memory:" });
  try {
    await storage.migrate();
  } catch (error) {
    await storage.close();
    throw error;
  }
  return createWithStorage({ ...options, storage });
}
