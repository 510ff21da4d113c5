/**
 * `@mailpulse/testing/contracts`: the contract suites MailPulse tests itself with, exported
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
} from "./api-contract/api-target.js";
export { runApiContractSuite } from "./api-contract/run-api-contract-suite.js";
export { type ServerKind, serverKinds, startTestServer, type TestServer } from "./serve-handler.js";
export { runStorageContractSuite, type StorageFactory } from "./storage-contract.js";
