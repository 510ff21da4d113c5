/**
 * `@mailpulse/core/node`: the Node bridge, the one place where Node's
 * `IncomingMessage`/`ServerResponse` meet the core's `(request: Request) => Promise<Response>`.
 * `serveNodeRequest` is the whole bridge; the Express and Fastify adapters and `createNodeListener`
 * are each one call of it. The path helpers are what adapters need to tell MailPulse's paths from
 * the host's outside a request (an error middleware, a framework's early errors).
 */
export type { DirectHandler, DirectHandlerRequest } from "./http/direct-handler.js";
export type { DirectRequest, DirectResponse } from "./http/direct-route.js";
export { isMailPulsePath, isUnderBasePath, pathnameOf } from "./node/base-path.js";
export { createNodeListener, type NodeListenerOptions } from "./node/create-node-listener.js";
export {
  type NodeAnswer,
  type ServeNodeRequestOptions,
  serveNodeRequest,
} from "./node/serve-node-request.js";
export type { MailPulseHttp, MailPulseRequestInfo } from "./node/types.js";
