/**
 * `@mailpulse/core/node`: the Node bridge, the one place where Node's
 * `IncomingMessage`/`ServerResponse` meet the core's `(request: Request) => Promise<Response>`.
 * The Express and Fastify adapters are thin wrappers around these functions.
 */
export type { DirectHandler, DirectHandlerRequest } from "./http/direct-handler.js";
export type { DirectRequest, DirectResponse } from "./http/direct-route.js";
export { isUnderBasePath, pathnameOf } from "./node/base-path.js";
export { clientIpOf } from "./node/client-ip.js";
export { bodyLeftUnread } from "./node/close-unread-body.js";
export { createNodeListener, type NodeListenerOptions } from "./node/create-node-listener.js";
export {
  isBridgeableMethod,
  type ToWebRequestOptions,
  toWebRequest,
} from "./node/incoming-message-to-request.js";
export { type DirectTarget, serveDirect, writeDirectResponse } from "./node/serve-direct.js";
export type { MailPulseHttp, MailPulseRequestInfo } from "./node/types.js";
export { writeWebResponse } from "./node/write-web-response.js";
