import type { MailPulseHandler } from "../http/create-handler.js";
import type { DirectHandler } from "../http/direct-handler.js";

export type { MailPulseRequestInfo } from "../http/create-handler.js";

/**
 * The whole HTTP surface of a MailPulse instance, as the Node bridge and the adapters see it.
 * `MailPulse` extends it, so an instance is always one; anything else with this shape (a test
 * double, a lazily created instance) works too. Type-only imports: the bridge loads no services.
 */
export interface MailPulseHttp {
  /**
   * Answers every request whose path is `basePath` or below it, including a JSON 404 for unknown
   * API routes. Never rejects: errors become responses. Reads and limits the request body itself.
   */
  handler: MailPulseHandler;
  /**
   * Optional fast path for the tracking routes: answers them without a `Request`/`Response`
   * (`undefined` for every other route, which then goes to `handler`). Same routes, same answers.
   */
  handleDirect?: DirectHandler;
  /**
   * Whether a route of the API has this path (relative to the mount point), whatever the method:
   * `/api/campaigns/abc` yes, `/api/users` no. Adapters that share a namespace with the host's
   * routes (Express) pass other paths on instead of answering 404. Optional: without it every
   * path under `basePath` is the API's.
   */
  servesPath?: (pathname: string) => boolean;
  /** Where the API lives, relative to the adapter's mount point. */
  basePath: string;
  /**
   * Checks where an adapter mounted the API (Express's `req.baseUrl`, Fastify's `prefix`; `""` at
   * the root) against `baseUrl`'s path, which tracking URLs are built on, and logs an error line
   * once per mount point that disagrees (every pixel would be a 404). `where` names the adapter in
   * the line. Optional: a test double without it is not checked.
   */
  checkMountPath?: (mountPath: string, where: string) => void;
  /** The largest request body the core accepts, in bytes; larger bodies are answered 413. */
  maxBodyBytes: number;
}
