/**
 * What an adapter knows about the connection that a `Request` cannot carry. Structurally the same
 * as the core's `RequestInfo`; declared here so the bridge depends on nothing but this file.
 */
export interface MailPulseRequestInfo {
  /**
   * The client's IP address as the host determined it: the socket's, or the forwarded one where
   * the host trusts its proxy (Express `req.ip`, Fastify `request.ip`). Undefined when unknown.
   */
  clientIp?: string;
}

/**
 * The whole HTTP surface of a MailPulse instance, as the Node bridge and the adapters see it.
 * Declared here (rather than imported from the core's composition root) so the bridge has no
 * dependency on services or storage; the real instance satisfies it structurally.
 */
export interface MailPulseHttp {
  /**
   * Answers every request whose path is `basePath` or below it, including a JSON 404 for unknown
   * API routes. Never rejects: errors become responses. Reads and limits the request body itself.
   */
  handler: (request: Request, info?: MailPulseRequestInfo) => Promise<Response>;
  /** Where the API lives, relative to the adapter's mount point. */
  basePath: "/api";
  /** The largest request body the core accepts, in bytes; larger bodies are answered 413. */
  maxBodyBytes: number;
}
