/**
 * `@mailpulse/core/testing`: the contract suites and real test peers MailPulse tests itself with,
 * exported so third-party storages and host apps can run them too. Needs `vitest` (and
 * `smtp-server` + `mailparser` for the SMTP peer, `dns2` for the DNS peer, `express`/`fastify` for those server kinds)
 * as dev dependencies.
 */
export {
  type ApiRequest,
  type ApiResponse,
  type ApiTestOverrides,
  type ApiTestTarget,
  createApiClient,
  createTenant,
  type StartApiTarget,
} from "./testing/api-contract/api-target.js";
export { runApiContractSuite } from "./testing/api-contract/run-api-contract-suite.js";
export * from "./testing/dns-test-server.js";
export * from "./testing/https-test-receiver.js";
export { type ServerKind, serverKinds, startTestServer, type TestServer } from "./testing/serve-handler.js";
export {
  type ParsedReceivedMessage,
  type ReceivedAddress,
  type ReceivedEnvelope,
  type SmtpTestServer,
  type SmtpTestServerOptions,
  startSmtpTestServer,
} from "./testing/smtp-test-server.js";
export { createStaticLookup } from "./testing/static-lookup.js";
export { runStorageContractSuite, type StorageFactory } from "./testing/storage-contract.js";
export { createTestClock, type TestClock } from "./testing/test-clock.js";
