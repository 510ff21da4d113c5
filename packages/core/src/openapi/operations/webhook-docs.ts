import { successSchema } from "../../http/answer-schemas.js";
import type { OperationDocs } from "../../http/operation-docs.js";
import {
  webhookDeliveryDetailSchema,
  webhookDeliveryPageSchema,
  webhookDeliverySchema,
  webhookListSchema,
  webhookSchema,
  webhookTestResultSchema,
} from "../../services/webhooks/webhook-answers.js";
import { errorDocs, jsonAnswer } from "./error-docs.js";

const tags = ["Webhooks"];

/** A JSON answer with a component schema. */

const webhookNotFound = errorDocs("No webhook with this id in the organization.", {
  notFound: "Webhook not found",
});

const deliveryNotFound = errorDocs("No such webhook, or no such delivery of it.", {
  webhook: "Webhook not found",
  delivery: "Delivery not found",
});

const idParameter = { id: { description: "The webhook's id.", schema: { type: "string", maxLength: 100 } } };

const deliveryParameters = {
  ...idParameter,
  deliveryId: { description: "The delivery's id.", schema: { type: "string", maxLength: 100 } },
};

/** `GET /webhooks`. */
export const listWebhooksDocs: OperationDocs = {
  tags,
  operationId: "listWebhooks",
  summary: "List webhooks",
  description: "The organization's webhooks, oldest first, with their secrets. Not paginated (20 at most).",
  responses: { "200": jsonAnswer("The webhooks.", webhookListSchema) },
};

/** `POST /webhooks`. */
export const createWebhookDocs: OperationDocs = {
  tags,
  operationId: "createWebhook",
  summary: "Create a webhook",
  description:
    "Subscribes an HTTPS endpoint to events. The URL must be absolute `https://`, without credentials, and must not be or resolve to a loopback, private, link-local, CGNAT, multicast or otherwise non-public address (unless the server allows private networks). An organization has at most 20 webhooks. The answer carries the signing secret (32 characters).",
  requestBody: {
    examples: {
      all: {
        value: {
          url: "https://example.com/hooks/mailpulse",
          events: ["EMAIL_SENT", "EMAIL_OPENED", "EMAIL_CLICKED"],
        },
      },
    },
  },
  responses: {
    "201": jsonAnswer("Created, active.", webhookSchema),
    "400": errorDocs("The body is invalid, the URL is refused, or the organization has 20 webhooks.", {
      notHttps: 'Invalid request body: "url": must be an https:// URL',
      unknownEvent:
        'Invalid request body: "events[0]" is unknown event "EMAIL_BOUNCED"; use EMAIL_SENT, EMAIL_OPENED, EMAIL_CLICKED',
      limit: "An organization can have at most 20 webhooks: delete one before adding another",
    }),
  },
};

/** `PATCH /webhooks/{id}`. */
export const updateWebhookDocs: OperationDocs = {
  tags,
  operationId: "updateWebhook",
  summary: "Update a webhook",
  description:
    "Changes the URL (checked as on creation), the events, or `isActive`. Re-activating a webhook resumes its pending deliveries. `updatedAt` changes on every update.",
  parameters: idParameter,
  requestBody: {
    examples: { pause: { value: { isActive: false } } },
  },
  responses: {
    "200": jsonAnswer("The updated webhook.", webhookSchema),
    "400": errorDocs("The body is invalid or the URL is refused.", {
      notHttps: 'Invalid request body: "url": must be an https:// URL',
    }),
    "404": webhookNotFound,
  },
};

/** `DELETE /webhooks/{id}`. */
export const deleteWebhookDocs: OperationDocs = {
  tags,
  operationId: "deleteWebhook",
  summary: "Delete a webhook",
  description: "Deletes the webhook with its queued and past deliveries.",
  parameters: idParameter,
  responses: { "200": jsonAnswer("Deleted.", successSchema), "404": webhookNotFound },
};

/** `POST /webhooks/{id}/rotate-secret`. */
export const rotateWebhookSecretDocs: OperationDocs = {
  tags,
  operationId: "rotateWebhookSecret",
  summary: "Rotate a webhook's secret",
  description:
    "Replaces the secret. For 24 hours, deliveries carry two Standard Webhooks signatures (`webhook-signature: v1,<new> v1,<old>`), so receivers can switch without losing deliveries; `x-webhook-signature` uses the new secret at once.",
  parameters: idParameter,
  responses: { "200": jsonAnswer("The webhook with its new secret.", webhookSchema), "404": webhookNotFound },
};

/** `POST /webhooks/{id}/test`. */
export const testWebhookDocs: OperationDocs = {
  tags,
  operationId: "testWebhook",
  summary: "Send a test event",
  description:
    "Delivers a signed test event (`test: true`, of the webhook's first event type, with sample data) now, once, and answers with what the receiver said. Not stored, not retried. A receiver that fails is reported in the body (`success: false`), not as an error status.",
  parameters: idParameter,
  responses: { "200": jsonAnswer("The receiver's answer.", webhookTestResultSchema), "404": webhookNotFound },
};

/** `GET /webhooks/{id}/deliveries`. */
export const listWebhookDeliveriesDocs: OperationDocs = {
  tags,
  operationId: "listWebhookDeliveries",
  summary: "List a webhook's deliveries",
  description:
    "Deliveries of the webhook, newest first: pending (not attempted yet), failed (will be retried at `nextAttemptAt`), delivered, or dead (no more attempts). Delivered and dead ones are kept for the retention period (30 days by default).",
  parameters: {
    ...idParameter,
    before: {
      description: "The `nextCursor` of the previous page: deliveries older than it.",
      schema: { type: "string", maxLength: 100 },
    },
    limit: {
      description: "Deliveries per page.",
      schema: { type: "integer", minimum: 1, maximum: 100, default: 50 },
    },
  },
  responses: {
    "200": jsonAnswer("A page of deliveries.", webhookDeliveryPageSchema),
    "400": errorDocs("A query parameter is invalid.", {
      badLimit: 'Invalid request query: "limit": must be an integer from 1 to 100',
    }),
    "404": webhookNotFound,
  },
};

/** `GET /webhooks/{id}/deliveries/{deliveryId}`. */
export const getWebhookDeliveryDocs: OperationDocs = {
  tags,
  operationId: "getWebhookDelivery",
  summary: "Get a delivery with its attempts",
  description:
    "One delivery with every attempt: when, the receiver's status, how long it took, the error, and the first KiB of the answer.",
  parameters: deliveryParameters,
  responses: { "200": jsonAnswer("The delivery.", webhookDeliveryDetailSchema), "404": deliveryNotFound },
};

/** `POST /webhooks/{id}/deliveries/{deliveryId}/retry`. */
export const retryWebhookDeliveryDocs: OperationDocs = {
  tags,
  operationId: "retryWebhookDelivery",
  summary: "Retry a failed or dead delivery",
  description: "Queues the delivery again, due now, with a fresh series of attempts.",
  parameters: deliveryParameters,
  responses: {
    "200": jsonAnswer("The delivery, pending.", webhookDeliverySchema),
    "404": deliveryNotFound,
    "409": errorDocs("The delivery is pending, being attempted, or delivered.", {
      delivered: "Only failed or dead deliveries can be retried; this one is delivered",
    }),
  },
};
