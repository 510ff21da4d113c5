import { z } from "zod";
import { webhookEventTypes } from "../../events/event-types.js";
import { dateTime } from "../validation/answer-fields.js";

/** Where an unsubscribe came from (`CONTACT_UNSUBSCRIBED`'s `source`). */
const unsubscribeSources = ["one-click", "page", "mailto", "api"] as const;

/** `Webhook` in the OpenAPI document. */
export const webhookSchema = z
  .strictObject({
    id: z.string(),
    url: z.string().meta({ format: "uri" }),
    events: z.array(z.enum(webhookEventTypes)).min(1),
    secret: z
      .string()
      .min(32)
      .max(32)
      .describe("The HMAC-SHA256 signing key (its UTF-8 bytes). See docs/webhooks.md."),
    isActive: z.boolean(),
    organizationId: z.string(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: "Webhook" });

/** {@link webhookSchema}'s type. */
export type Webhook = z.output<typeof webhookSchema>;

/** `WebhookList` in the OpenAPI document. */
export const webhookListSchema = z.array(webhookSchema).meta({ id: "WebhookList" });

/** {@link webhookListSchema}'s type. */
export type WebhookList = z.output<typeof webhookListSchema>;

/** `WebhookTestResult` in the OpenAPI document. */
export const webhookTestResultSchema = z
  .strictObject({
    success: z.boolean().describe("The receiver answered 2xx."),
    status: z.int().nullable().describe("Null when no answer came."),
    durationMs: z.number().min(0),
    error: z.string().nullable(),
    responseExcerpt: z.string().describe("The first KiB of the answer."),
  })
  .meta({ id: "WebhookTestResult" });

/** {@link webhookTestResultSchema}'s type. */
export type WebhookTestResult = z.output<typeof webhookTestResultSchema>;

/** `WebhookDelivery` in the OpenAPI document. */
export const webhookDeliverySchema = z
  .strictObject({
    id: z.string(),
    eventId: z.string().describe("The delivered event's id (`evt_...`), as in its body."),
    type: z.enum(webhookEventTypes),
    state: z
      .enum(["pending", "delivered", "failed", "dead"])
      .describe(
        "`pending`: not attempted yet; `failed`: retried at `nextAttemptAt`; `dead`: no more attempts.",
      ),
    attempts: z.int().min(0),
    lastStatus: z.int().nullable().describe("The receiver's status at the last attempt."),
    lastError: z.string().nullable(),
    lastAttemptAt: dateTime.nullable(),
    nextAttemptAt: dateTime.nullable(),
    createdAt: dateTime,
    deliveredAt: dateTime.nullable(),
  })
  .meta({ id: "WebhookDelivery" });

/** {@link webhookDeliverySchema}'s type. */
export type WebhookDelivery = z.output<typeof webhookDeliverySchema>;

/** `WebhookDeliveryPage` in the OpenAPI document. */
export const webhookDeliveryPageSchema = z
  .strictObject({
    data: z.array(webhookDeliverySchema),
    nextCursor: z.string().nullable().describe("Pass as `before` for older deliveries."),
  })
  .meta({ id: "WebhookDeliveryPage" });

/** {@link webhookDeliveryPageSchema}'s type. */
export type WebhookDeliveryPage = z.output<typeof webhookDeliveryPageSchema>;

/** `WebhookDeliveryDetail` in the OpenAPI document: the delivery, with its attempt log. */
export const webhookDeliveryDetailSchema = webhookDeliverySchema
  .extend({
    attemptLog: z.array(
      z.strictObject({
        attemptedAt: dateTime,
        status: z.int().nullable(),
        durationMs: z.int().min(0),
        error: z.string().nullable(),
        responseExcerpt: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "WebhookDeliveryDetail" });

/** {@link webhookDeliveryDetailSchema}'s type. */
export type WebhookDeliveryDetail = z.output<typeof webhookDeliveryDetailSchema>;

/** `WebhookEvent` in the OpenAPI document. */
export const webhookEventSchema = z
  .strictObject({
    id: z.string().describe("`evt_...`: the same in every delivery of the event and in the events API."),
    type: z.enum(webhookEventTypes),
    createdAt: dateTime,
    data: z.strictObject({
      emailId: z.string(),
      emailTrackingId: z.string(),
      from: z.string(),
      to: z.array(z.string()),
      subject: z.string(),
      campaign: z
        .strictObject({
          id: z.string(),
          name: z.string(),
        })
        .nullable(),
      metadata: z.unknown().describe("The send's `metadata`, or null."),
      providerMessageId: z.string().nullable(),
      tags: z
        .array(
          z.strictObject({
            name: z.string(),
            value: z.string(),
          }),
        )
        .describe("The send's `tags`.")
        .optional(),
      link: z
        .strictObject({
          url: z.string(),
          trackingId: z.string(),
        })
        .describe("EMAIL_CLICKED only.")
        .optional(),
      userAgent: z.string().nullable().describe("EMAIL_OPENED and EMAIL_CLICKED only.").optional(),
      ip: z
        .string()
        .nullable()
        .describe("EMAIL_OPENED and EMAIL_CLICKED only; as the IP retention setting keeps it.")
        .optional(),
      machine: z
        .boolean()
        .describe(
          "EMAIL_OPENED and EMAIL_CLICKED only: true when a program (Apple's privacy prefetch, a security scanner, a bot) made the hit, not a person. The events API shows the current verdict (docs/measurement.md).",
        )
        .optional(),
      source: z
        .enum(["apple_privacy", "image_proxy", "security_scanner", "bot", "human", ...unsubscribeSources])
        .describe(
          "EMAIL_OPENED and EMAIL_CLICKED: who made the hit (`apple_privacy`, `image_proxy`, `security_scanner`, `bot`, `human`). CONTACT_UNSUBSCRIBED: where the unsubscribe came from (`one-click`, `page`, `mailto`, `api`).",
        )
        .optional(),
      reasons: z
        .array(z.string())
        .describe("EMAIL_OPENED and EMAIL_CLICKED only: why, each a short sentence.")
        .optional(),
      recipient: z
        .string()
        .describe(
          "EMAIL_BOUNCED, EMAIL_COMPLAINED and CONTACT_UNSUBSCRIBED only: the recipient concerned, lowercased.",
        )
        .optional(),
      bounceType: z
        .enum(["hard", "soft"])
        .describe(
          "EMAIL_BOUNCED only: `hard` (permanent; the address is suppressed) or `soft` (transient; suppressed after repeated soft bounces, docs/deliverability.md).",
        )
        .optional(),
      status: z
        .string()
        .nullable()
        .describe("EMAIL_BOUNCED only: the enhanced status code (`5.1.1`), or null.")
        .optional(),
      diagnostic: z
        .string()
        .nullable()
        .describe("EMAIL_BOUNCED only: the receiving server's words (bounded), or null.")
        .optional(),
      feedbackType: z
        .string()
        .describe("EMAIL_COMPLAINED only: the report's feedback type, lowercased (`abuse`, `fraud`, ...).")
        .optional(),
    }),
  })
  .meta({ id: "WebhookEvent", description: "A webhook delivery's body, and an item of `GET /api/events`." });

/** {@link webhookEventSchema}'s type. */
export type WebhookEvent = z.output<typeof webhookEventSchema>;

/** `EventPage` in the OpenAPI document. */
export const eventPageSchema = z
  .strictObject({
    data: z.array(webhookEventSchema),
    nextCursor: z
      .string()
      .nullable()
      .describe("The last event's id when the page is full; pass it as `after`."),
  })
  .meta({ id: "EventPage" });

/** {@link eventPageSchema}'s type. */
export type EventPage = z.output<typeof eventPageSchema>;
