import type { IncomingMessage, ServerResponse } from "node:http";
import type { DirectResponse } from "../http/direct-route.js";
import { bodyLeftUnread } from "./close-unread-body.js";
import { hasDotSegment } from "./dot-segments.js";
import type { MailPulseHttp } from "./types.js";

const dotSegmentAnswer: DirectResponse = {
  status: 400,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: JSON.stringify({ error: "The URL path must not contain '.' or '..' segments" }),
};

/**
 * The bridge's short way, taken first: a 400 for a raw path with dot segments (any method: see
 * `hasDotSegment`; checked here because a `Request` only ever holds the resolved path), else the
 * core's answer to a GET or HEAD of a direct route (the tracking routes) as plain data.
 * `undefined` otherwise (or when the instance has no direct handler): the bridge then builds a
 * `Request` as for any other route. `pathname` is relative to the mount point, without query;
 * `clientIp` is the peer's address. See `defineDirectRoute`.
 */
export function serveDirect(
  mailpulse: MailPulseHttp,
  req: IncomingMessage,
  pathname: string,
  clientIp: string | undefined,
): Promise<DirectResponse | undefined> | undefined {
  if (hasDotSegment(pathname)) return Promise.resolve(dotSegmentAnswer);
  const method = req.method;
  if ((method !== "GET" && method !== "HEAD") || mailpulse.handleDirect === undefined) return undefined;
  return mailpulse.handleDirect({
    method,
    pathname,
    clientIp,
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    },
  });
}

/**
 * Writes a direct answer with one `writeHead` and `end`, keeping headers the host already set;
 * `Connection: close` when the client is still sending a body (see `bodyLeftUnread`).
 */
export function writeDirectResponse(res: ServerResponse, answer: DirectResponse): void {
  if (bodyLeftUnread(res.req)) res.setHeader("connection", "close");
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body ?? undefined);
}
