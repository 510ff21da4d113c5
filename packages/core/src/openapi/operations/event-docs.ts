import type { OperationDocs } from "../../http/operation-docs.js";
import { eventPageSchema } from "../../services/webhooks/webhook-answers.js";
import { errorDocs, jsonAnswer } from "./error-docs.js";

/** `GET /events`. */
export const listEventsDocs: OperationDocs = {
  tags: ["Events"],
  operationId: "listEvents",
  summary: "List events",
  description:
    "The organization's events (emails sent, opens, clicks), oldest first, in the shape of a webhook delivery's body and with the same `id`. A receiver that was down catches up from the last event id it processed (`after=evt_...`) without waiting for retries. `nextCursor` (the last event's id) is set when the page is full; when it is null the page reached the newest event, and later events follow the last one listed. Events are kept as long as their emails.",
  parameters: {
    after: {
      description: "Start after this event id (`evt_...`): the last one you have, or a page's `nextCursor`.",
      schema: { type: "string", maxLength: 200 },
    },
    limit: {
      description: "Events per page.",
      schema: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
    },
    type: {
      description: "Comma-separated event names to list: `EMAIL_SENT`, `EMAIL_OPENED`, `EMAIL_CLICKED`.",
      schema: { type: "string", maxLength: 200 },
    },
    emailTrackingId: {
      description: "Only the events of the email with this tracking id.",
      schema: { type: "string", maxLength: 200 },
    },
    tag: {
      description: "Only the events of emails sent with this tag: `name:value`.",
      schema: { type: "string", maxLength: 600 },
    },
  },
  responses: {
    "200": jsonAnswer("A page of events.", eventPageSchema),
    "400": errorDocs("A query parameter is invalid.", {
      badType:
        'Invalid request query: "type": has unknown event "EMAIL_BOUNCED"; use EMAIL_SENT, EMAIL_OPENED, EMAIL_CLICKED',
      badAfter: 'Invalid request query: "after" is not an event id (evt_...)',
    }),
  },
};
