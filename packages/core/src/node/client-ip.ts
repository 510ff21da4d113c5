import type { IncomingMessage } from "node:http";

/**
 * The client's IP address for a plain Node server: the socket's remote address, or the first
 * (client-most) `X-Forwarded-For` entry when `trustProxy` is set. Only trust the header behind a
 * proxy that overwrites it; otherwise any client can claim any address. Framework adapters use
 * the framework's own answer (`req.ip`, `request.ip`) instead, which follows the host's settings.
 */
export function clientIpOf(req: IncomingMessage, trustProxy = false): string | undefined {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress;
}
