/**
 * `@mailpulse/core/testing/contracts`: the contract suites MailPulse tests itself with, exported
 * so third-party storages and host apps can run them. Needs `vitest` as a dev dependency (and
 * `express` or `fastify` to run the API suite through those server kinds).
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
export { type ServerKind, serverKinds, startTestServer, type TestServer } from "./testing/serve-handler.js";
export { runStorageContractSuite, type StorageFactory } from "./testing/storage-contract.js";
