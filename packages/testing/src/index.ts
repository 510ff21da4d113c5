/**
 * `@mailpulse/testing`: what a host app needs to test its use of MailPulse, with no test
 * framework or test server to install. `createTestMailPulse({ storage })` wires an instance with
 * captured mail, one test clock and a quiet logger (`@mailpulse/storage-sqlite/testing` adds an
 * in-memory SQLite database), and `createStaticLookup` decides what webhook hosts resolve to. The
 * contract suites (which need vitest) are on
 * `@mailpulse/testing/contracts`, the SMTP and DNS test servers on `@mailpulse/testing/peers`.
 */
export {
  createTestMailPulse,
  type TestMailPulse,
  type TestMailPulseOptions,
  type TestVisitor,
} from "./kit/create-test-mailpulse.js";
export { createTestLogger, type LoggedLine, type TestLogger } from "./kit/test-logger.js";
export {
  createTestOutbox,
  type OutboxLink,
  type OutboxMessage,
  type TestOutbox,
  type TestOutboxOptions,
} from "./kit/test-outbox.js";
export { createStaticLookup } from "./static-lookup.js";
export { createTestClock, type TestClock } from "./test-clock.js";
