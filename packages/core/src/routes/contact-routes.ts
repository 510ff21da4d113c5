import { z } from "zod";
import { jsonResponse } from "../http/json-response.js";
import { defineRoute } from "../http/route.js";
import {
  type ContactService,
  defaultContactPageSize,
  maxContactPageSize,
} from "../services/contact-service.js";

/** Options of {@link contactRoutes}. */
export interface ContactRoutesOptions {
  /** The public address of the API (`MailPulseOptions.baseUrl`); the `Link` header's next URL starts with it. */
  baseUrl: string;
}

const listQuery = z.object({
  search: z.string().max(320, "must be at most 320 characters").optional(),
  limit: z.coerce
    .number()
    .int("must be an integer")
    .min(1, "must be at least 1")
    .max(maxContactPageSize, `must be at most ${maxContactPageSize}`)
    .default(defaultContactPageSize),
  cursor: z.string().max(2000).optional(),
});

/**
 * `/api/contacts` routes. The list keeps the spec's array body; the next page's absolute URL
 * travels in `Link: <url>; rel="next"` (RFC 8288), absent on the last page.
 */
export function contactRoutes(contacts: ContactService, options: ContactRoutesOptions) {
  const listUrl = `${options.baseUrl.replace(/\/+$/, "")}/api/contacts`;

  return [
    defineRoute({
      method: "GET",
      path: "/api/contacts",
      query: listQuery,
      handle: async ({ organizationId, query }) => {
        const page = await contacts.list(organizationId, query);
        const headers: Record<string, string> = {};
        if (page.nextCursor) {
          const next = new URLSearchParams();
          if (query.search !== undefined) next.set("search", query.search);
          next.set("limit", String(query.limit));
          next.set("cursor", page.nextCursor);
          headers.link = `<${listUrl}?${next}>; rel="next"`;
        }
        return jsonResponse(page.contacts, 200, headers);
      },
    }),
    defineRoute({
      method: "GET",
      path: "/api/contacts/:email",
      // The router has already percent-decoded the segment: ann%40example.com -> ann@example.com.
      params: z.object({ email: z.string().min(1).max(320) }),
      handle: ({ organizationId, params }) => contacts.get(organizationId, params.email),
    }),
  ];
}
