import { z } from "zod";
import { successSchema } from "../http/answer-schemas.js";
import { defineRoute } from "../http/route.js";
import { errorDocs, jsonAnswer } from "../openapi/answer-docs.js";
import type { WebhookService } from "../services/webhook-service.js";
import {
  webhookDeliveryDetailSchema,
  webhookDeliveryPageSchema,
  webhookDeliverySchema,
  webhookListSchema,
  webhookSchema,
  webhookTestResultSchema,
} from "../services/webhooks/webhook-answers.js";
import { idParams, maxPathIdLength } from "./id-params.js";

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

const deliveryParams = idParams.extend({ deliveryId: z.string().min(1).max(maxPathIdLength) });

/** `/api/webhooks` routes: the spec's CRUD, plus deliveries, test and secret rotation. */
export function webhookRoutes(webhooks: WebhookService) {
  return [
    defineRoute({
      method: "GET",
      path: "/webhooks",
      docs: {
        tags,
        operationId: "listWebhooks",
        summary: "List webhooks",
        description:
          "The organization's webhooks, oldest first, with their secrets. Not paginated (20 at most).",
        responses: { "200": jsonAnswer("The webhooks.", webhookListSchema) },
      },
      handle: ({ organizationId }) => webhooks.list(organizationId),
    }),
    defineRoute({
      method: "POST",
      path: "/webhooks",
      docs: {
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
              'Invalid request body: "events[0]" is unknown event "EMAIL_DELIVERED"; use EMAIL_SENT, EMAIL_OPENED, EMAIL_CLICKED, EMAIL_BOUNCED, EMAIL_COMPLAINED, CONTACT_UNSUBSCRIBED',
            limit: "An organization can have at most 20 webhooks: delete one before adding another",
          }),
        },
      },
      input: { from: "body", schema: webhooks.create.schema },
      status: 201,
      handle: ({ organizationId, input }) => webhooks.create.parsed(organizationId, input),
    }),
    defineRoute({
      method: "PATCH",
      path: "/webhooks/:id",
      docs: {
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
      },
      params: idParams,
      input: { from: "body", schema: webhooks.update.schema },
      handle: ({ organizationId, params, input }) => webhooks.update.parsed(organizationId, params.id, input),
    }),
    defineRoute({
      method: "DELETE",
      path: "/webhooks/:id",
      docs: {
        tags,
        operationId: "deleteWebhook",
        summary: "Delete a webhook",
        description: "Deletes the webhook with its queued and past deliveries.",
        parameters: idParameter,
        responses: { "200": jsonAnswer("Deleted.", successSchema), "404": webhookNotFound },
      },
      params: idParams,
      handle: async ({ organizationId, params }) => {
        await webhooks.delete(organizationId, params.id);
        return { success: true };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/webhooks/:id/rotate-secret",
      docs: {
        tags,
        operationId: "rotateWebhookSecret",
        summary: "Rotate a webhook's secret",
        description:
          "Replaces the secret. For 24 hours, deliveries carry two Standard Webhooks signatures (`webhook-signature: v1,<new> v1,<old>`), so receivers can switch without losing deliveries; `x-webhook-signature` uses the new secret at once.",
        parameters: idParameter,
        responses: {
          "200": jsonAnswer("The webhook with its new secret.", webhookSchema),
          "404": webhookNotFound,
        },
      },
      params: idParams,
      handle: ({ organizationId, params }) => webhooks.rotateSecret(organizationId, params.id),
    }),
    defineRoute({
      method: "POST",
      path: "/webhooks/:id/test",
      docs: {
        tags,
        operationId: "testWebhook",
        summary: "Send a test event",
        description:
          "Delivers a signed test event (`test: true`, of the webhook's first event type, with sample data) now, once, and answers with what the receiver said. Not stored, not retried. A receiver that fails is reported in the body (`success: false`), not as an error status.",
        parameters: idParameter,
        responses: {
          "200": jsonAnswer("The receiver's answer.", webhookTestResultSchema),
          "404": webhookNotFound,
        },
      },
      params: idParams,
      handle: ({ organizationId, params }) => webhooks.test(organizationId, params.id),
    }),
    defineRoute({
      method: "GET",
      path: "/webhooks/:id/deliveries",
      docs: {
        tags,
        operationId: "listWebhookDeliveries",
        summary: "List a webhook's deliveries",
        description:
          "Deliveries of the webhook, newest first: pending (not attempted yet), failed (will be retried at `nextAttemptAt`), delivered, or dead (no more attempts). Delivered and dead ones are kept for the retention period (30 days by default).",
        parameters: {
          ...idParameter,
          before: {
            description: "The `nextCursor` of the previous page: deliveries older than it.",
          },
          limit: {
            description: "Deliveries per page.",
            // The route reads the text; the service checks the number (and words the 400).
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
      },
      params: idParams,
      query: z.object({ before: z.string().max(100).optional(), limit: z.string().max(20).optional() }),
      handle: ({ organizationId, params, query }) =>
        webhooks.listDeliveries(organizationId, params.id, {
          before: query.before,
          limit: query.limit === undefined ? undefined : Number(query.limit),
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/webhooks/:id/deliveries/:deliveryId",
      docs: {
        tags,
        operationId: "getWebhookDelivery",
        summary: "Get a delivery with its attempts",
        description:
          "One delivery with every attempt: when, the receiver's status, how long it took, the error, and the first KiB of the answer.",
        parameters: deliveryParameters,
        responses: {
          "200": jsonAnswer("The delivery.", webhookDeliveryDetailSchema),
          "404": deliveryNotFound,
        },
      },
      params: deliveryParams,
      handle: ({ organizationId, params }) =>
        webhooks.getDelivery(organizationId, params.id, params.deliveryId),
    }),
    defineRoute({
      method: "POST",
      path: "/webhooks/:id/deliveries/:deliveryId/retry",
      docs: {
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
      },
      params: deliveryParams,
      handle: ({ organizationId, params }) =>
        webhooks.retryDelivery(organizationId, params.id, params.deliveryId),
    }),
  ];
}
