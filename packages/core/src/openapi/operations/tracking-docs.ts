import type { OperationDocs } from "../../http/operation-docs.js";

/** `GET /t/o/{id}`. */
export const trackOpenDocs: OperationDocs = {
  tags: ["Tracking"],
  operationId: "trackOpen",
  summary: "Open-tracking pixel",
  description:
    "The 1x1 transparent GIF injected into tracked emails. Records an open of the email with this tracking id (with the client's user agent and, by default, a truncated IP address) and emits `EMAIL_OPENED`; unknown ids record nothing. The answer is the same GIF either way, never cached. HEAD answers the same headers and records nothing. No API key.",
  parameters: {
    id: {
      description: "The email's tracking id (`emailTrackingId`).",
      schema: {
        type: "string",
        minLength: 1,
        maxLength: 200,
      },
    },
  },
  responses: {
    "200": {
      description:
        "The GIF (42 bytes), whether or not the id is known, and for ids no email can have (empty, over 200 characters, malformed percent-encoding, control characters): a mail client shows a broken image for anything else.",
      headers: {
        "Cache-Control": {
          description: "`no-store, no-cache, must-revalidate, private`",
          required: true,
          schema: {
            type: "string",
          },
        },
        Pragma: {
          description: "`no-cache`",
          required: true,
          schema: {
            type: "string",
          },
        },
        Expires: {
          description: "`0`",
          required: true,
          schema: {
            type: "string",
          },
        },
      },
      content: {
        "image/gif": {},
      },
    },
  },
};

/** `GET /t/c/{id}`. */
export const trackClickDocs: OperationDocs = {
  tags: ["Tracking"],
  operationId: "trackClick",
  summary: "Click-tracking redirect",
  description:
    "The tracking URL links are rewritten to. Redirects to the link's stored URL (never one taken from the request), recording the click and emitting `EMAIL_CLICKED`. HEAD answers the same redirect and records nothing. No API key.",
  parameters: {
    id: {
      description: "The link's tracking id (`links[].trackingId`).",
      schema: {
        type: "string",
        minLength: 1,
        maxLength: 200,
      },
    },
  },
  responses: {
    "302": {
      description: "Redirect to the original URL.",
      headers: {
        Location: {
          description: "The link's original URL.",
          required: true,
          schema: {
            type: "string",
            format: "uri",
          },
        },
        "Cache-Control": {
          description: "`no-store`",
          required: true,
          schema: {
            type: "string",
          },
        },
        "Referrer-Policy": {
          description: "`no-referrer`",
          required: true,
          schema: {
            type: "string",
          },
        },
      },
    },
    "404": {
      description:
        "Unknown link, or an id no link can have (empty, over 200 characters, malformed percent-encoding, control characters): a small HTML page for the person who clicked (not JSON). No click is recorded.",
      headers: {
        "Cache-Control": {
          description: "`no-store`",
          required: true,
          schema: {
            type: "string",
          },
        },
      },
      content: {
        "text/html": {
          schema: {
            type: "string",
          },
          example:
            '<!doctype html><html><head><meta charset="utf-8"><title>Link not found</title></head>\n<body><p>This link is not valid or has expired.</p></body></html>',
        },
      },
    },
  },
};
