import type { JsonObject } from "../util/json.js";

const dateTime = { type: "string", format: "date-time" };
const nullableDateTime = { type: ["string", "null"], format: "date-time" };
const eventName = { enum: ["EMAIL_SENT", "EMAIL_OPENED", "EMAIL_CLICKED"] };

const deliveryProperties: JsonObject = {
  id: { type: "string" },
  eventId: { type: "string", description: "The delivered event's id (`evt_...`), as in its body." },
  type: eventName,
  state: {
    enum: ["pending", "delivered", "failed", "dead"],
    description:
      "`pending`: not attempted yet; `failed`: retried at `nextAttemptAt`; `dead`: no more attempts.",
  },
  attempts: { type: "integer", minimum: 0 },
  lastStatus: { type: ["integer", "null"], description: "The receiver's status at the last attempt." },
  lastError: { type: ["string", "null"] },
  lastAttemptAt: nullableDateTime,
  nextAttemptAt: nullableDateTime,
  createdAt: dateTime,
  deliveredAt: nullableDateTime,
};

const deliveryRequired = Object.keys(deliveryProperties);

/** The JSON Schemas of the webhook and event answers and requests (merged into the components). */
export const webhookSchemas: Record<string, JsonObject> = {
  Webhook: {
    type: "object",
    required: ["id", "url", "events", "secret", "isActive", "organizationId", "createdAt", "updatedAt"],
    properties: {
      id: { type: "string" },
      url: { type: "string", format: "uri" },
      events: { type: "array", items: eventName, minItems: 1 },
      secret: {
        type: "string",
        minLength: 32,
        maxLength: 32,
        description: "The HMAC-SHA256 signing key (its UTF-8 bytes). See docs/webhooks.md.",
      },
      isActive: { type: "boolean" },
      organizationId: { type: "string" },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
    additionalProperties: false,
  },
  WebhookList: { type: "array", items: { $ref: "#/components/schemas/Webhook" } },
  CreateWebhookRequest: {
    type: "object",
    required: ["url", "events"],
    properties: {
      url: { type: "string", maxLength: 2048, description: "An absolute https:// URL on a public address." },
      events: { type: "array", items: eventName, minItems: 1 },
    },
  },
  UpdateWebhookRequest: {
    type: "object",
    properties: {
      url: { type: "string", maxLength: 2048 },
      events: { type: "array", items: eventName, minItems: 1 },
      isActive: { type: "boolean" },
    },
  },
  WebhookTestResult: {
    type: "object",
    required: ["success", "status", "durationMs", "error", "responseExcerpt"],
    properties: {
      success: { type: "boolean", description: "The receiver answered 2xx." },
      status: { type: ["integer", "null"], description: "Null when no answer came." },
      durationMs: { type: "number", minimum: 0 },
      error: { type: ["string", "null"] },
      responseExcerpt: { type: "string", description: "The first KiB of the answer." },
    },
    additionalProperties: false,
  },
  WebhookDelivery: {
    type: "object",
    required: deliveryRequired,
    properties: deliveryProperties,
    additionalProperties: false,
  },
  WebhookDeliveryPage: {
    type: "object",
    required: ["data", "nextCursor"],
    properties: {
      data: { type: "array", items: { $ref: "#/components/schemas/WebhookDelivery" } },
      nextCursor: { type: ["string", "null"], description: "Pass as `before` for older deliveries." },
    },
    additionalProperties: false,
  },
  WebhookDeliveryDetail: {
    type: "object",
    required: [...deliveryRequired, "attemptLog"],
    properties: {
      ...deliveryProperties,
      attemptLog: {
        type: "array",
        items: {
          type: "object",
          required: ["attemptedAt", "status", "durationMs", "error", "responseExcerpt"],
          properties: {
            attemptedAt: dateTime,
            status: { type: ["integer", "null"] },
            durationMs: { type: "integer", minimum: 0 },
            error: { type: ["string", "null"] },
            responseExcerpt: { type: ["string", "null"] },
          },
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  },
  WebhookEvent: {
    type: "object",
    description: "A webhook delivery's body, and an item of `GET /api/events`.",
    required: ["id", "type", "createdAt", "data"],
    properties: {
      id: {
        type: "string",
        description: "`evt_...`: the same in every delivery of the event and in the events API.",
      },
      type: eventName,
      createdAt: dateTime,
      data: {
        type: "object",
        required: [
          "emailId",
          "emailTrackingId",
          "from",
          "to",
          "subject",
          "campaign",
          "metadata",
          "providerMessageId",
        ],
        properties: {
          emailId: { type: "string" },
          emailTrackingId: { type: "string" },
          from: { type: "string" },
          to: { type: "array", items: { type: "string" } },
          subject: { type: "string" },
          campaign: {
            oneOf: [
              {
                type: "object",
                required: ["id", "name"],
                properties: { id: { type: "string" }, name: { type: "string" } },
                additionalProperties: false,
              },
              { type: "null" },
            ],
          },
          metadata: { description: "The send's `metadata`, or null." },
          providerMessageId: { type: ["string", "null"] },
          tags: {
            type: "array",
            description: "The send's `tags`.",
            items: {
              type: "object",
              required: ["name", "value"],
              properties: { name: { type: "string" }, value: { type: "string" } },
              additionalProperties: false,
            },
          },
          link: {
            type: "object",
            description: "EMAIL_CLICKED only.",
            required: ["url", "trackingId"],
            properties: { url: { type: "string" }, trackingId: { type: "string" } },
            additionalProperties: false,
          },
          userAgent: { type: ["string", "null"], description: "EMAIL_OPENED and EMAIL_CLICKED only." },
          ip: {
            type: ["string", "null"],
            description: "EMAIL_OPENED and EMAIL_CLICKED only; as the IP retention setting keeps it.",
          },
          machine: {
            type: "boolean",
            description:
              "EMAIL_OPENED and EMAIL_CLICKED only: true when a program (Apple's privacy prefetch, a security scanner, a bot) made the hit, not a person. The events API shows the current verdict (docs/measurement.md).",
          },
          source: {
            type: "string",
            enum: ["apple_privacy", "image_proxy", "security_scanner", "bot", "human"],
            description: "EMAIL_OPENED and EMAIL_CLICKED only: who made the hit.",
          },
          reasons: {
            type: "array",
            items: { type: "string" },
            description: "EMAIL_OPENED and EMAIL_CLICKED only: why, each a short sentence.",
          },
        },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  EventPage: {
    type: "object",
    required: ["data", "nextCursor"],
    properties: {
      data: { type: "array", items: { $ref: "#/components/schemas/WebhookEvent" } },
      nextCursor: {
        type: ["string", "null"],
        description: "The last event's id when the page is full; pass it as `after`.",
      },
    },
    additionalProperties: false,
  },
};
