import type { StoredEventType, WebhookEventType } from "../ports/storage.js";

/** Every event log type, in the order the docs list them. */
export const storedEventTypes = [
  "sent",
  "open",
  "click",
  "bounce",
  "complaint",
  "unsubscribe",
] as const satisfies readonly StoredEventType[];

/**
 * Every webhook event name, in the order the docs list them: what a webhook may subscribe to and
 * `GET /api/events?type=` may filter by. A tuple, so zod enums are built from it.
 */
export const webhookEventTypes = [
  "EMAIL_SENT",
  "EMAIL_OPENED",
  "EMAIL_CLICKED",
  "EMAIL_BOUNCED",
  "EMAIL_COMPLAINED",
  "CONTACT_UNSUBSCRIBED",
] as const satisfies readonly WebhookEventType[];

const nameOf: Record<StoredEventType, WebhookEventType> = {
  sent: "EMAIL_SENT",
  open: "EMAIL_OPENED",
  click: "EMAIL_CLICKED",
  bounce: "EMAIL_BOUNCED",
  complaint: "EMAIL_COMPLAINED",
  unsubscribe: "CONTACT_UNSUBSCRIBED",
};

const typeOf = Object.fromEntries(Object.entries(nameOf).map(([type, name]) => [name, type])) as Record<
  WebhookEventType,
  StoredEventType
>;

/** The webhook event name of an event log type. */
export function webhookEventTypeOf(type: StoredEventType): WebhookEventType {
  return nameOf[type];
}

/** The event log type of a webhook event name. */
export function storedEventTypeOf(type: WebhookEventType): StoredEventType {
  return typeOf[type];
}
