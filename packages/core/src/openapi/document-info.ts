import type { JsonObject } from "../util/json.js";

/**
 * What the OpenAPI document says about the API as a whole (info, servers, default security,
 * tags and the security scheme). The operations come from the route table.
 */
export const documentInfo = {
  openapi: "3.1.0",
  info: {
    title: "MailPulse API",
    version: "0.1.0",
    summary:
      "Embeddable email tracking and sending: tracked sends, opens, clicks, campaigns, statistics and contacts.",
    description:
      'Every route MailPulse\'s HTTP handler (`mailpulse.handler`) serves, generated from its route table (`mailpulse.routes`) by `npm run openapi`. All paths begin with the base path, `/api` by default (the `basePath` option); the server URL is the instance\'s `baseUrl` (which may itself carry a prefix, e.g. `https://example.com/mail`).\n\n**Authentication.** Every route except the two tracking routes (`/api/t/o/{id}` and `/api/t/c/{id}`) and this document (`/api/openapi.json`) requires an API key in the `x-api-key` header (surrounding whitespace is ignored). A missing, unknown or revoked key is answered `401 {"error": "Unauthorized"}`. A key only reaches the resources of its organization; a resource of another organization is reported as not found (404).\n\n**Errors.** Every error body is JSON with one field: `{"error": string}`, a message meant for the API client. Requests are processed in this order, and the first failure answers:\n1. Routing: a raw path with a `.` or `..` segment (also percent-encoded, `%2e%2e`) is `400` on every route when served through the Node adapters (`The URL path must not contain \'.\' or \'..\' segments`); an unknown path is `404` (`No route for GET /api/nope`); a known path with a method it does not serve is `405` with an `Allow` header (`Method DELETE is not allowed here; use GET, HEAD, POST`).\n2. Authentication: `401` (not on tracking routes), then the rate limit when the instance has one: `429` with `Retry-After`.\n3. Validation of path parameters, query and body (a path parameter with malformed percent-encoding is `400`, one holding a control character (`%00`) `404`; the tracking routes answer their GIF or 404 page instead): `400` naming the field, e.g. `Invalid request body: "name" is required`. Only routes with a request body read it: a body larger than the instance\'s limit (`maxBodyBytes`, default 1 MiB) is `413`; a non-empty body whose `Content-Type` is not `application/json` (or `application/*+json`) is `415`; a body that does not parse, or nests objects and arrays more than 64 levels deep, is `400`; an empty body is `400 Request body is required: send a JSON object`.\n4. The operation itself: the statuses each operation lists.\n\nAn unexpected failure is logged by the server and answered `500 {"error": "Internal server error"}`.\n\n**HEAD.** Every GET route also answers HEAD with the same status and headers and no body; a HEAD request to a tracking route records no open or click.\n\n**Timestamps** are ISO 8601 strings in UTC (`2026-03-05T07:59:59.000Z`). **Ids** are opaque strings.',
    license: {
      name: "MIT",
      identifier: "MIT",
    },
  },
  servers: [
    {
      url: "{baseUrl}",
      // No `description` on the variable: @apidevtools/swagger-parser refuses one there.
      description:
        "A MailPulse instance: its `baseUrl` option, the public address of the instance without trailing slash.",
      variables: {
        baseUrl: {
          default: "http://localhost:3000",
        },
      },
    },
  ],
  security: [
    {
      apiKey: [],
    },
  ],
  tags: [
    {
      name: "Emails",
      description: "Tracked sending, and registration of emails another system sends.",
    },
    {
      name: "Campaigns",
      description: "Groups of emails, with their statistics.",
    },
    {
      name: "Statistics",
      description: "Campaign period statistics and organization-wide totals.",
    },
    {
      name: "Contacts",
      description: "The `to` recipients an organization emailed, with their engagement and timeline.",
    },
    {
      name: "Tracking",
      description: "Public endpoints mail clients call: the open pixel and the click redirect. No API key.",
    },
    {
      name: "OpenAPI",
      description: "This document, served by the instance at `/api/openapi.json` without an API key.",
    },
    {
      name: "Domains",
      description:
        "Sending domains verified by DNS (MX, SPF, DKIM), and the custom tracking domain verified by a CNAME. See docs/domains.md.",
    },
    {
      name: "Webhooks",
      description:
        "HTTPS endpoints that receive signed events (EMAIL_SENT, EMAIL_OPENED, EMAIL_CLICKED, EMAIL_BOUNCED, EMAIL_COMPLAINED, CONTACT_UNSUBSCRIBED), retried for about 28 hours. See docs/webhooks.md.",
    },
    {
      name: "Events",
      description: "The event log webhooks deliver from: catch up on what a receiver missed.",
    },
    {
      name: "Suppressions",
      description:
        "The organization's suppression list: addresses sends drop (bounced, complained, unsubscribed or added by hand). See docs/deliverability.md.",
    },
    {
      name: "Unsubscribe",
      description:
        "The one-click unsubscribe URL of `List-Unsubscribe` (RFC 8058), for mail clients and recipients: no API key, a signed token. See docs/deliverability.md.",
    },
    {
      name: "Delivery feedback",
      description:
        "Bounces and complaints from providers: Amazon SES notifications through SNS, authenticated by the SNS signature. See docs/deliverability.md.",
    },
    {
      name: "Inbound messages",
      description:
        "What the inbound SMTP receiver took in: bounces, complaints, unsubscribes and replies, bounded. See docs/deliverability.md.",
    },
  ],
  securitySchemes: {
    apiKey: {
      type: "apiKey",
      in: "header",
      name: "x-api-key",
      description:
        "An API key of the organization (`mp_...`). Keys are created per organization and stored hashed.",
    },
  },
} satisfies Record<string, JsonObject | JsonObject[] | string>;
