import { z } from "zod";
import { opaqueCursor, pageLimit } from "../validation/page-query.js";

/** Sending domains per page when `limit` is not given: the default cap, so by default one page holds them all. */
export const defaultDomainPageSize = 50;
/** The largest accepted `limit`. */
export const maxDomainPageSize = 200;

/** Where a page of sending domains starts: after this domain, in (createdAt, id) order. */
export interface DomainCursor {
  createdAt: number;
  id: string;
}

/** The cursor of the page after `last`: `createdAt.id` in base64url. */
export function encodeDomainCursor(last: DomainCursor): string {
  return Buffer.from(`${last.createdAt}.${last.id}`, "utf8").toString("base64url");
}

/** The position a cursor names, or `undefined` for a token MailPulse did not issue. */
export function decodeDomainCursor(token: string): DomainCursor | undefined {
  const text = Buffer.from(token, "base64url").toString("utf8");
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{1,200})$/.exec(text);
  if (!match) return undefined;
  return { createdAt: Number(match[1]), id: match[2]! };
}

/**
 * What `sendingDomains.page` takes (the query of `GET /api/sending-domains`): `limit` coerced
 * from the query text, `cursor` decoded.
 */
export const domainListSchema = z.object({
  limit: pageLimit(maxDomainPageSize, defaultDomainPageSize).describe("Domains per page."),
  cursor: opaqueCursor(400, decodeDomainCursor).describe(
    "The position of the next page, from the `Link` header.",
  ),
});
