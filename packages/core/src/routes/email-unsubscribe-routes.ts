import { z } from "zod";
import { defineRoute } from "../http/route.js";
import { errorDocs, jsonAnswer } from "../openapi/answer-docs.js";
import type { DeliveryFeedbackService } from "../services/delivery-feedback-service.js";
import { suppressionSchema } from "../services/suppressions/suppression-answers.js";
import { maxPathIdLength } from "./id-params.js";

/** `:emailTrackingId` of the route: the email's tracking id, as in the send answer. */
const trackingIdParams = z.object({ emailTrackingId: z.string().min(1).max(maxPathIdLength) });

/**
 * `POST /api/emails/:emailTrackingId/unsubscribe`: a host records an unsubscribe it received
 * itself (its own preference page, a support request) against the email it is about, so it is
 * suppressed, logged and reported like a one-click unsubscribe (docs/deliverability.md).
 */
export function emailUnsubscribeRoutes(deliveryFeedback: DeliveryFeedbackService) {
  return [
    defineRoute({
      method: "POST",
      path: "/emails/:emailTrackingId/unsubscribe",
      docs: {
        tags: ["Emails"],
        operationId: "unsubscribeEmailRecipient",
        summary: "Unsubscribe a recipient of a sent email",
        description:
          "Records that a recipient of the email unsubscribed (source `api`): the address is suppressed with reason `unsubscribe` (an address already suppressed keeps its first reason), the unsubscribe is counted in the statistics once, and a `CONTACT_UNSUBSCRIBED` event is emitted the first time. Repeating the call is harmless. Answers the address's suppression entry. `recipient` defaults to the email's first `to` recipient; send `{}` for it.",
        parameters: {
          emailTrackingId: { description: "The email's tracking id (`emailTrackingId` of the send answer)." },
        },
        requestBody: {
          examples: { firstTo: { value: {} }, named: { value: { recipient: "ann@example.com" } } },
        },
        responses: {
          "200": jsonAnswer("The recipient's suppression entry.", suppressionSchema),
          "400": errorDocs("The body is missing or invalid.", {
            missing: "Request body is required: send a JSON object",
            badRecipient: 'Invalid request body: "recipient" "ann" is not an email address',
          }),
          "404": errorDocs("The organization has no email with this tracking id.", {
            notFound: "Email not found",
          }),
          "422": errorDocs("`recipient` is not a recipient of the email.", {
            notRecipient: '"zed@example.com" is not a recipient of this email',
          }),
        },
      },
      params: trackingIdParams,
      input: { from: "body", schema: deliveryFeedback.unsubscribe.schema },
      handle: ({ organizationId, params, input }) =>
        deliveryFeedback.unsubscribe.parsed(organizationId, params.emailTrackingId, input),
    }),
  ];
}
