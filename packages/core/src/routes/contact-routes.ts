import { z } from "zod";
import { jsonResponse } from "../http/json-response.js";
import { defineRoute } from "../http/route.js";
import { getContactDocs, listContactsDocs } from "../openapi/operations/contact-docs.js";
import type { ContactService } from "../services/contact-service.js";
import { sentQuery } from "./sent-query.js";

/** The query parameters the next page's URL keeps (the cursor is the next page's own). */
const keptListParameters = ["search", "limit"] as const;

/**
 * `/api/contacts` routes. The list keeps the spec's array body; the next page's absolute URL
 * travels in `Link: <url>; rel="next"` (RFC 8288), absent on the last page.
 */
export function contactRoutes(contacts: ContactService) {
  return [
    defineRoute({
      method: "GET",
      path: "/contacts",
      docs: listContactsDocs,
      input: { from: "query", schema: contacts.list.schema },
      handle: async ({ organizationId, input, rawInput, publicUrl }) => {
        const page = await contacts.list.parsed(organizationId, input);
        // The next page keeps the query as sent, not as parsed (a limit of "020" stays "020").
        const query = sentQuery(rawInput);
        const headers: Record<string, string> = {};
        if (page.nextCursor) {
          const next = new URLSearchParams();
          for (const name of keptListParameters) {
            const value = query[name];
            if (value !== undefined) next.set(name, value);
          }
          next.set("cursor", page.nextCursor);
          headers.link = `<${publicUrl}?${next}>; rel="next"`;
        }
        return jsonResponse(page.contacts, 200, headers);
      },
    }),
    defineRoute({
      method: "GET",
      path: "/contacts/:email",
      docs: getContactDocs,
      // The router has already percent-decoded the segment: ann%40example.com -> ann@example.com.
      params: z.object({ email: z.string().min(1).max(320) }),
      handle: ({ organizationId, params }) => contacts.get(organizationId, params.email),
    }),
  ];
}
