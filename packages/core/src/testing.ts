/**
 * `@mailpulse/core/testing`: the contract suites and real test peers MailPulse tests itself with,
 * exported so third-party storages and host apps can run them too. Needs `vitest` (and
 * `smtp-server` + `mailparser` for the SMTP peer) as dev dependencies.
 */
export { runStorageContractSuite, type StorageFactory } from "./testing/storage-contract.js";
export { createTestClock, type TestClock } from "./testing/test-clock.js";
