import { defineRoute } from "../http/route.js";
import { errorDocs, jsonAnswer } from "../openapi/answer-docs.js";
import type { EventService } from "../services/event-service.js";
import { eventPageSchema } from "../services/webhooks/webhook-answers.js";

/** `GET /api/events`: the organization's event log, for receivers catching up. */
export function eventRoutes(events: EventService) {
  return [
    defineRoute({
      method: "GET",
      path: "/events",
      docs: {
        tags: ["Events"],
        operationId: "listEvents",
        summary: "List events",
        description:
          "The organization's events (emails sent, opens, clicks, bounces, complaints, unsubscribes), oldest first, in the shape of a webhook delivery's body and with the same `id`. A receiver that was down catches up from the last event id it processed (`after=evt_...`) without waiting for retries. `nextCursor` (the last event's id) is set when the page is full; when it is null the page reached the newest event, and later events follow the last one listed. Events are kept as long as their emails.",
        parameters: {
          after: {
            description:
              "Start after this event id (`evt_...`): the last one you have, or a page's `nextCursor`.",
          },
          limit: {
            description: "Events per page.",
          },
          type: {
            description:
              "Comma-separated event names to list: `EMAIL_SENT`, `EMAIL_OPENED`, `EMAIL_CLICKED`, `EMAIL_BOUNCED`, `EMAIL_COMPLAINED`, `CONTACT_UNSUBSCRIBED`.",
          },
          emailTrackingId: {
            description: "Only the events of the email with this tracking id.",
          },
          tag: {
            description: "Only the events of emails sent with this tag: `name:value`.",
          },
        },
        responses: {
          "200": jsonAnswer("A page of events.", eventPageSchema),
          "400": errorDocs("A query parameter is invalid.", {
            badType:
              'Invalid request query: "type": has unknown event "EMAIL_DELIVERED"; use EMAIL_SENT, EMAIL_OPENED, EMAIL_CLICKED, EMAIL_BOUNCED, EMAIL_COMPLAINED, CONTACT_UNSUBSCRIBED',
            badAfter: 'Invalid request query: "after" is not an event id (evt_...)',
          }),
        },
      },
      input: { from: "query", schema: events.list.schema },
      handle: ({ organizationId, input }) => events.list.parsed(organizationId, input),
    }),
  ];
}
