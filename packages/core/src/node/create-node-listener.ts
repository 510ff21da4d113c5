import type { IncomingMessage, ServerResponse } from "node:http";
import { answerFailure, serveNodeRequest } from "./serve-node-request.js";
import type { MailPulseHttp } from "./types.js";

/** Options of {@link createNodeListener}. */
export interface NodeListenerOptions {
  /**
   * Called with errors the core could not turn into a response (it never should) and with
   * response-stream failures. Default: `console.error`.
   */
  onError?: (error: unknown) => void;
  /**
   * Believe `X-Forwarded-Proto` for the request URL and the client-most `X-Forwarded-For` entry for
   * the client IP (the rule of `tracking.trustProxy: true`); only behind a proxy that sets both.
   * For a hop count or the proxies' CIDRs, leave this false and set `tracking.trustProxy`.
   * Default: false.
   */
  trustProxy?: boolean;
}

/**
 * A `(req, res)` listener for `http.createServer` (or `https`) that serves MailPulse at the root:
 * {@link serveNodeRequest} with no `onUnmatched`, so requests under `mailpulse.basePath` go to the
 * core, every other path is answered 404 `{"error":"Not found"}` (CONNECT and TRACE, which a
 * fetch `Request` cannot carry, 405), and a failure is reported to `onError` and answered 500.
 * For mounting beside other routes use the Express or Fastify adapter. Logs an error line when
 * `baseUrl` has a path, since tracking URLs then point below a mount point it does not have.
 */
export function createNodeListener(
  mailpulse: MailPulseHttp,
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const report = options.onError ?? ((error: unknown) => console.error("[mailpulse]", error));
  const trustProxy = options.trustProxy === true;
  // It serves at the root: a `baseUrl` with a path makes every tracking URL a 404 (unless a
  // proxy strips the path), which the instance logs once, at creation.
  mailpulse.checkMountPath?.("", "The Node listener");
  return (req, res) => {
    void serveNodeRequest(mailpulse, req, res, {
      trustProxy,
      onError: (error) => answerFailure(res, error, report),
    });
  };
}
