import { z } from "zod";
import { webhookEventTypes } from "../../events/event-types.js";
import type { WebhookEventType } from "../../ports/storage.js";
import { pageLimit } from "../validation/page-query.js";

/** Events per page when `limit` is not given. */
export const defaultEventPageSize = 100;
/** The largest accepted `limit`. */
export const maxEventPageSize = 1000;

const eventTypes: readonly WebhookEventType[] = webhookEventTypes;

/**
 * What `events.list` takes (the query of `GET /api/events`): `limit` coerced from the query
 * string, `type` split and checked.
 */
export const eventListSchema = z.object({
  after: z
    .string()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .optional()
    .describe(
      "Start after this event: the id of the last event the caller has (`evt_...`, from a delivery or a page's `nextCursor`).",
    ),
  limit: pageLimit(maxEventPageSize, defaultEventPageSize).describe("Page size."),
  type: z
    .string()
    .max(200, "must be at most 200 characters")
    .transform((value, context) => {
      const names = value.split(",").map((name) => name.trim());
      const unknown = names.filter((name) => !eventTypes.includes(name as WebhookEventType));
      if (unknown.length > 0) {
        context.addIssue({
          code: "custom",
          message: `has unknown event ${unknown.map((name) => JSON.stringify(name)).join(", ")}; use ${eventTypes.join(", ")}`,
        });
        return z.NEVER;
      }
      return [...new Set(names)] as WebhookEventType[];
    })
    .optional()
    .describe("Comma-separated event names (`EMAIL_SENT,EMAIL_CLICKED`); all when absent."),
  emailTrackingId: z
    .string()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .optional()
    .describe("Only the events of the email with this tracking id."),
  tag: z
    .string()
    .max(600, "must be at most 600 characters")
    .transform((value, context) => {
      const match = /^([A-Za-z0-9_-]{1,256}):([A-Za-z0-9_-]{1,256})$/.exec(value);
      if (!match) {
        context.addIssue({ code: "custom", message: "must be name:value, as in a send's tags" });
        return z.NEVER;
      }
      return { name: match[1] as string, value: match[2] as string };
    })
    .optional()
    .describe("Only the events of emails tagged so: `name:value` (a send's `tags` entry)."),
});

/** What `events.list` takes: {@link eventListSchema}'s input. */
export type EventListInput = z.input<typeof eventListSchema>;
