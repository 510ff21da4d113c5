/**
 * The Node bridge: the one place where Node's `IncomingMessage`/`ServerResponse` meet the core's
 * `(request: Request) => Promise<Response>`. The Express and Fastify adapters are thin wrappers
 * around these functions.
 */

export type { DirectHandler, DirectHandlerRequest } from "../http/direct-handler.js";
export type { DirectRequest, DirectResponse } from "../http/direct-route.js";
export { isUnderBasePath, pathnameOf } from "./base-path.js";
export { clientIpOf } from "./client-ip.js";
export type { NodeListenerOptions } from "./create-node-listener.js";
export { createNodeListener } from "./create-node-listener.js";
export type { ToWebRequestOptions } from "./incoming-message-to-request.js";
export { isBridgeableMethod, toWebRequest } from "./incoming-message-to-request.js";
export type { DirectTarget } from "./serve-direct.js";
export { serveDirect, writeDirectResponse } from "./serve-direct.js";
export type { MailPulseHttp, MailPulseRequestInfo } from "./types.js";
export { writeWebResponse } from "./write-web-response.js";
