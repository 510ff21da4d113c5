import type { IncomingMessage } from "node:http";

/**
 * Whether the connection should close after answering `req`: true when the client is still sending
 * a body nobody will read (a 401 before the body, a 413 past the limit). Node would otherwise keep
 * reading and discarding it to reuse the connection, so a client dripping one byte every few
 * seconds held its connection for as long as it liked, even after its answer.
 */
export function bodyLeftUnread(req: IncomingMessage | undefined): boolean {
  return req !== undefined && !req.complete;
}
