import type { OperationDocs } from "../../http/operation-docs.js";
import { contactDetailSchema, contactSummarySchema } from "../../services/contacts/contact-answers.js";
import { errorDocs, jsonAnswer } from "./error-docs.js";

/** `GET /contacts`. */
export const listContactsDocs: OperationDocs = {
  tags: ["Contacts"],
  operationId: "listContacts",
  summary: "List contacts",
  description:
    'The `to` recipients the organization emailed (addresses lowercased), most recent activity first, one page at a time. The body is a JSON array; when there is a next page, the `Link` header carries its absolute URL (`<{baseUrl}/api/contacts?limit=100&cursor=...>; rel="next"`, RFC 8288), keeping the `search` and `limit` the request gave. The header is absent on the last page.',
  parameters: {
    search: {
      description:
        "Case-insensitive substring of the address; surrounding whitespace ignored, empty means no filter.",
      schema: {
        type: "string",
        maxLength: 320,
      },
    },
    limit: {
      description: "Contacts per page.",
      schema: {
        type: "integer",
        minimum: 1,
        maximum: 1000,
        default: 100,
      },
    },
    cursor: {
      description:
        "Opaque position of the next page, as issued in the `Link` header. Follow the header's URL rather than building it.",
      schema: {
        type: "string",
        maxLength: 2000,
      },
    },
  },
  responses: {
    "200": {
      description: "A page of contacts.",
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
            items: contactSummarySchema,
          },
        },
      },
    },
    "400": errorDocs("A query parameter is invalid.", {
      badLimit: 'Invalid request query: "limit": must be at most 1000',
      badCursor:
        'Invalid request query: "cursor" is not a cursor MailPulse issued; use the one the previous page gave',
    }),
  },
};

/** `GET /contacts/{email}`. */
export const getContactDocs: OperationDocs = {
  tags: ["Contacts"],
  operationId: "getContact",
  summary: "Get a contact with its timeline",
  parameters: {
    email: {
      description: "The contact's address, URL-encoded (`ann%40example.com`); case-insensitive.",
      schema: {
        type: "string",
        minLength: 1,
        maxLength: 320,
      },
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
};
