import { z } from "zod";
import type { WebhookEventType } from "../../ports/storage.js";
import { schemaFor } from "../validation/schema-for.js";

/** The event names a webhook may subscribe to. */
export const webhookEventTypes: readonly WebhookEventType[] = ["EMAIL_SENT", "EMAIL_OPENED", "EMAIL_CLICKED"];

/** A webhook URL before the network checks: an absolute `https://` URL (see webhook-url.ts). */
const urlSchema = z.string().trim().min(1, "must not be empty").max(2048, "must be at most 2048 characters");

/** A non-empty list of known event names; the message names an unknown one. */
const eventsSchema = z
  .array(z.string(), "must be an array of event names")
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
export interface CreateWebhookInput {
  /** An absolute `https://` URL without credentials, on a public address. */
  url: string;
  /** A non-empty subset of `EMAIL_SENT`, `EMAIL_OPENED`, `EMAIL_CLICKED`. */
  events: string[];
}

/** What `webhooks.update` takes (the body of `PATCH /api/webhooks/:id`); every field optional. */
export interface UpdateWebhookInput {
  url?: string;
  events?: string[];
  isActive?: boolean;
}

/** Parses a {@link CreateWebhookInput}. */
export const createWebhookSchema = schemaFor<CreateWebhookInput>()(
  z.object({ url: urlSchema, events: eventsSchema }),
);

/** Parses an {@link UpdateWebhookInput}. */
export const updateWebhookSchema = schemaFor<UpdateWebhookInput>()(
  z.object({
    url: urlSchema.optional(),
    events: eventsSchema.optional(),
    isActive: z.boolean("must be true or false").optional(),
  }),
);
