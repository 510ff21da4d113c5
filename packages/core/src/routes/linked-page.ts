import type { z } from "zod";
import { jsonResponse } from "../http/json-response.js";
import type { DocsObject } from "../http/operation-docs.js";
import { sentQuery } from "./sent-query.js";

// The paged lists that keep the spec's array body (the contacts, a campaign's links) say where
// the next page is in `Link: <url>; rel="next"` (RFC 8288) instead of in the body. Both halves of
// that contract live here, so the two lists cannot drift apart: the documented 200 answer and the
// answer itself.

/**
 * The documented 200 answer of such a list: `description`, a JSON array of `items`, and the
 * `Link` header, absent on the last page.
 */
export function linkedPageAnswer(description: string, items: z.ZodType): DocsObject {
  return {
    description,
    headers: {
      Link: {
        description: 'The next page: `<url>; rel="next"`. Absent on the last page.',
        schema: {
          type: "string",
        },
      },
    },
    content: {
      "application/json": {
        schema: {
          type: "array",
          items,
        },
      },
    },
  };
}

/** Where a list's next page is, and what of the request its URL keeps. */
export interface NextPage {
  /** The page's `nextCursor`: `null` on the last page (then no `Link` is sent). */
  cursor: string | null;
  /** The route's `publicUrl`: the list's URL without the query. */
  publicUrl: string;
  /** The route's `rawInput`: the query as the request sent it. */
  rawInput: unknown;
  /** The query parameters the next page keeps, when the request gave them (the cursor is its own). */
  keep: readonly string[];
}

/**
 * The list's answer: `items` as the JSON array body, 200, with `Link` to the next page when there
 * is one. The next page keeps the kept parameters as sent, not as parsed (a limit of "020" stays
 * "020"), then its own `cursor`.
 */
export function linkedPageResponse(items: unknown[], next: NextPage): Response {
  return jsonResponse(items, 200, nextPageHeaders(next));
}

/**
 * The `Link` header of the next page (none on the last), for a list whose body the spec shapes
 * otherwise (`{domains: [...]}`): the same URL rules as {@link linkedPageResponse}.
 */
export function nextPageHeaders(next: NextPage): Record<string, string> {
  const headers: Record<string, string> = {};
  if (next.cursor) {
    const query = sentQuery(next.rawInput);
    const params = new URLSearchParams();
    for (const name of next.keep) {
      const value = query[name];
      if (value !== undefined) params.set(name, value);
    }
    params.set("cursor", next.cursor);
    headers.link = `<${next.publicUrl}?${params}>; rel="next"`;
  }
  return headers;
}

/** {@link linkedPageAnswer}'s `Link` header, for answers documented with another body. */
export const nextPageLinkHeader = {
  Link: {
    description: 'The next page: `<url>; rel="next"`. Absent on the last page.',
    schema: {
      type: "string",
    },
  },
};
