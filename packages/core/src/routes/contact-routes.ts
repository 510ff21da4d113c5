import { z } from "zod";
import { defineRoute } from "../http/route.js";
import { errorDocs, jsonAnswer } from "../openapi/answer-docs.js";
import type { ContactService } from "../services/contact-service.js";
import { contactDetailSchema, contactSummarySchema } from "../services/contacts/contact-answers.js";
import { linkedPageAnswer, linkedPageResponse } from "./linked-page.js";

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
      docs: {
        tags: ["Contacts"],
        operationId: "listContacts",
        summary: "List contacts",
        description:
          'The `to` recipients the organization emailed (addresses lowercased), most recent activity first, one page at a time. The body is a JSON array; when there is a next page, the `Link` header carries its absolute URL (`<{baseUrl}/api/contacts?limit=100&cursor=...>; rel="next"`, RFC 8288), keeping the `search` and `limit` the request gave. The header is absent on the last page.',
        parameters: {
          search: {
            description:
              "Case-insensitive substring of the address; surrounding whitespace ignored, empty means no filter.",
          },
          limit: {
            description: "Contacts per page.",
          },
          cursor: {
            description:
              "Opaque position of the next page, as issued in the `Link` header. Follow the header's URL rather than building it.",
          },
        },
        responses: {
          "200": linkedPageAnswer("A page of contacts.", contactSummarySchema),
          "400": errorDocs("A query parameter is invalid.", {
            badLimit: 'Invalid request query: "limit": must be at most 1000',
            badCursor:
              'Invalid request query: "cursor" is not a cursor MailPulse issued; use the one the previous page gave',
          }),
        },
      },
      input: { from: "query", schema: contacts.list.schema },
      handle: async ({ organizationId, input, rawInput, publicUrl }) => {
        const page = await contacts.list.parsed(organizationId, input);
        return linkedPageResponse(page.contacts, {
          cursor: page.nextCursor,
          publicUrl,
          rawInput,
          keep: keptListParameters,
        });
      },
    }),
    defineRoute({
      method: "GET",
      path: "/contacts/:email",
      docs: {
        tags: ["Contacts"],
        operationId: "getContact",
        summary: "Get a contact with its timeline",
        parameters: {
          email: {
            description: "The contact's address, URL-encoded (`ann%40example.com`); case-insensitive.",
          },
        },
        responses: {
          "200": jsonAnswer("The contact.", contactDetailSchema),
          "400": errorDocs("The address is longer than 320 characters; or the path is malformed.", {
            tooLong: 'Invalid request path: "email": Too big: expected string to have <=320 characters',
            badEncoding: "Malformed percent-encoding in the URL path",
          }),
          "404": errorDocs("The organization never emailed this address.", { notFound: "Contact not found" }),
        },
      },
      // The router has already percent-decoded the segment: ann%40example.com -> ann@example.com.
      params: z.object({ email: z.string().min(1).max(320) }),
      handle: ({ organizationId, params }) => contacts.get(organizationId, params.email),
    }),
  ];
}
