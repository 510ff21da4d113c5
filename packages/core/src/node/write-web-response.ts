import type { ServerResponse } from "node:http";
import { bodyLeftUnread } from "./close-unread-body.js";

// Statuses whose responses never carry a body (RFC 9110 §6.4.1); Node would drop it anyway.
const BODYLESS_STATUSES = new Set([204, 205, 304]);

/**
 * Writes a WHATWG `Response` to a Node `ServerResponse`: status, headers (each `Set-Cookie`
 * separately, never comma-joined), then the body streamed chunk by chunk with backpressure.
 * Headers a host set on `res` beforehand (CORS, request ids) are kept unless the response
 * overrides them. HEAD requests and bodyless statuses get headers only, and the body is cancelled.
 * When the request's body has not been read to its end, the answer says `Connection: close` and
 * the connection ends with it (see `bodyLeftUnread`).
 *
 * Resolves once the response has ended, or as soon as the client has gone away (the body stream is
 * then cancelled so the producer can stop). Rejects only if the body stream itself fails after the
 * headers went out; the connection is destroyed first, since the status can no longer change.
 */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText !== "") res.statusMessage = response.statusText;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  if (bodyLeftUnread(res.req)) res.setHeader("connection", "close");

  const body = response.body;
  if (body === null || res.req?.method === "HEAD" || BODYLESS_STATUSES.has(response.status)) {
    await body?.cancel().catch(() => {});
    res.end();
    return;
  }

  const reader = body.getReader();
  const stopReading = (): void => {
    reader.cancel().catch(() => {});
  };
  res.once("close", stopReading);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await drainedOrClosed(res);
    }
    if (!res.destroyed) res.end();
  } catch (error) {
    res.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  } finally {
    res.off("close", stopReading);
  }
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}
