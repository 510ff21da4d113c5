import { z } from "zod";
import { defineRoute } from "../http/route.js";
import {
  createWebhookDocs,
  deleteWebhookDocs,
  getWebhookDeliveryDocs,
  listWebhookDeliveriesDocs,
  listWebhooksDocs,
  retryWebhookDeliveryDocs,
  rotateWebhookSecretDocs,
  testWebhookDocs,
  updateWebhookDocs,
} from "../openapi/operations/webhook-docs.js";
import type { WebhookService } from "../services/webhook-service.js";
import { idParams, maxPathIdLength } from "./id-params.js";

const deliveryParams = idParams.extend({ deliveryId: z.string().min(1).max(maxPathIdLength) });

/** `/api/webhooks` routes: the spec's CRUD, plus deliveries, test and secret rotation. */
export function webhookRoutes(webhooks: WebhookService) {
  return [
    defineRoute({
      method: "GET",
      path: "/webhooks",
      docs: listWebhooksDocs,
      handle: ({ organizationId }) => webhooks.list(organizationId),
    }),
    defineRoute({
      method: "POST",
      path: "/webhooks",
      docs: createWebhookDocs,
      input: { from: "body", schema: webhooks.create.schema },
      status: 201,
      handle: ({ organizationId, input }) => webhooks.create.parsed(organizationId, input),
    }),
    defineRoute({
      method: "PATCH",
      path: "/webhooks/:id",
      docs: updateWebhookDocs,
      params: idParams,
      input: { from: "body", schema: webhooks.update.schema },
      handle: ({ organizationId, params, input }) => webhooks.update.parsed(organizationId, params.id, input),
    }),
    defineRoute({
      method: "DELETE",
      path: "/webhooks/:id",
      docs: deleteWebhookDocs,
      params: idParams,
      handle: async ({ organizationId, params }) => {
        await webhooks.delete(organizationId, params.id);
        return { success: true };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/webhooks/:id/rotate-secret",
      docs: rotateWebhookSecretDocs,
      params: idParams,
      handle: ({ organizationId, params }) => webhooks.rotateSecret(organizationId, params.id),
    }),
    defineRoute({
      method: "POST",
      path: "/webhooks/:id/test",
      docs: testWebhookDocs,
      params: idParams,
      handle: ({ organizationId, params }) => webhooks.test(organizationId, params.id),
    }),
    defineRoute({
      method: "GET",
      path: "/webhooks/:id/deliveries",
      docs: listWebhookDeliveriesDocs,
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
      docs: getWebhookDeliveryDocs,
      params: deliveryParams,
      handle: ({ organizationId, params }) =>
        webhooks.getDelivery(organizationId, params.id, params.deliveryId),
    }),
    defineRoute({
      method: "POST",
      path: "/webhooks/:id/deliveries/:deliveryId/retry",
      docs: retryWebhookDeliveryDocs,
      params: deliveryParams,
      handle: ({ organizationId, params }) =>
        webhooks.retryDelivery(organizationId, params.id, params.deliveryId),
    }),
  ];
}
