import type { IncomingMessage, ServerResponse } from "node:http";
import { isUnderBasePath, pathnameOf } from "./base-path.js";
import { clientIpOf } from "./client-ip.js";
import { isBridgeableMethod, toWebRequest } from "./incoming-message-to-request.js";
import { serveDirect, writeDirectResponse } from "./serve-direct.js";
import type { MailPulseHttp } from "./types.js";
import { writeWebResponse } from "./write-web-response.js";

/** Options of {@link createNodeListener}. */
export interface NodeListenerOptions {
  /**
   * Called with errors the core could not turn into a response (it never should) and with
   * response-stream failures. Default: `console.error`.
   */
  onError?: (error: unknown) => void;
  /**
   * Believe `X-Forwarded-Proto` for the request URL and `X-Forwarded-For` for the client IP; only
   * behind a proxy that sets both. Default: false.
   */
  trustProxy?: boolean;
}

/**
 * A `(req, res)` listener for `http.createServer` (or `https`) that serves MailPulse at the root:
 * requests under `mailpulse.basePath` go to the core, every other path is answered
 * 404 `{"error":"Not found"}` (CONNECT and TRACE, which a fetch `Request` cannot carry, 405).
 * For mounting beside other routes use the Express or Fastify adapter.
 */
export function createNodeListener(
  mailpulse: MailPulseHttp,
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const onError = options.onError ?? ((error: unknown) => console.error("[mailpulse]", error));
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const pathname = pathnameOf(req.url);
    if (!isUnderBasePath(pathname, mailpulse.basePath)) {
      sendJson(res, 404, { error: "Not found" });
      return;
    }
    if (!isBridgeableMethod(req.method)) {
      sendJson(res, 405, { error: `Method ${req.method} is not allowed` });
      return;
    }
    const trustProxy = options.trustProxy === true;
    const clientIp = clientIpOf(req, trustProxy);
    const direct = await serveDirect(mailpulse, req, { pathname, clientIp });
    if (direct) {
      writeDirectResponse(res, direct);
      return;
    }
    const request = toWebRequest(req, { maxBodyBytes: mailpulse.maxBodyBytes, response: res, trustProxy });
    const response = await mailpulse.handler(request, { clientIp });
    await writeWebResponse(res, response);
  };
  return (req, res) => {
    serve(req, res).catch((error: unknown) => {
      onError(error);
      // Without a framework behind us there is nobody else to answer; never leave the client hanging.
      if (!res.headersSent) sendJson(res, 500, { error: "Internal server error" });
      else res.destroy();
    });
  };
}

function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}
