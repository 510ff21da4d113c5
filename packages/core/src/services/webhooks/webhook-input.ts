import { z } from "zod";
import { webhookEventTypes as allEventTypes } from "../../events/event-types.js";
import type { WebhookEventType } from "../../ports/storage.js";

/** The event names a webhook may subscribe to: every event (events/event-types.ts). */
export const webhookEventTypes: readonly WebhookEventType[] = allEventTypes;

/** A webhook URL before the network checks: an absolute `https://` URL (see webhook-url.ts). */
const urlSchema = z.string().trim().min(1, "must not be empty").max(2048, "must be at most 2048 characters");

/** A non-empty list of known event names; the message names an unknown one. */
const eventsSchema = z
  // The names are checked below, to name an unknown one; the document lists them.
  .array(z.string().meta({ enum: [...webhookEventTypes] }), "must be an array of event names")
  .min(1, "must name at least one event")
  .max(webhookEventTypes.length * 4, "has too many entries")
  .superRefine((names, context) => {
    names.forEach((name, index) => {
      if (!webhookEventTypes.includes(name as WebhookEventType)) {
        context.addIssue({
          code: "custom",
          path: [index],
          message: `is unknown event ${JSON.stringify(name.slice(0, 50))}; use ${webhookEventTypes.join(", ")}`,
        });
      }
    });
  })
  .transform((names) => [...new Set(names)] as WebhookEventType[]);

/** What `webhooks.create` takes (the body of `POST /api/webhooks`). */
export const createWebhookSchema = z
  .object({ url: urlSchema.describe("An absolute https:// URL on a public address."), events: eventsSchema })
  .meta({ id: "CreateWebhookRequest" });

/** What `webhooks.create` takes: {@link createWebhookSchema}'s input. */
export type CreateWebhookInput = z.input<typeof createWebhookSchema>;

/** What `webhooks.update` takes (the body of `PATCH /api/webhooks/:id`); every field optional. */
export const updateWebhookSchema = z
  .object({
    url: urlSchema.optional(),
    events: eventsSchema.optional(),
    isActive: z.boolean("must be true or false").optional(),
  })
  .meta({ id: "UpdateWebhookRequest" });

/** What `webhooks.update` takes: {@link updateWebhookSchema}'s input. */
export type UpdateWebhookInput = z.input<typeof updateWebhookSchema>;
