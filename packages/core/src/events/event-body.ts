import type { HitSource } from "../measurement/hit-verdict.js";
import type { StoredEvent, UnsubscribeEventDetails, WebhookEventType } from "../ports/storage.js";
import { webhookEventTypeOf } from "./event-types.js";

export { storedEventTypeOf, webhookEventTypeOf } from "./event-types.js";

/**
 * An event as webhook deliveries carry it and `GET /api/events` lists it: the same `id` in both,
 * so a receiver can dedupe deliveries against what it caught up on. docs/webhooks.md documents
 * every field.
 */
export interface WebhookEvent {
  /** `evt_` and the event's log id: unique per event, the same for every webhook receiving it. */
  id: string;
  type: WebhookEventType;
  /**
   * When it happened: the provider's acceptance of the message, the open or click, or when the
   * bounce, complaint or unsubscribe was reported.
   */
  createdAt: string;
  data: WebhookEventData;
}

/** What an event reports. Opens and clicks add the client's signals; clicks the link. */
export interface WebhookEventData {
  emailId: string;
  emailTrackingId: string;
  /** The From the message went out with. */
  from: string;
  to: string[];
  subject: string;
  campaign: { id: string; name: string } | null;
  /** The `metadata` given at send time, or null. */
  metadata: unknown;
  /** The provider's message id; null for registered emails (another system sent them). */
  providerMessageId: string | null;
  /** The send's `tags`, `[]` without. */
  tags: Array<{ name: string; value: string }>;
  /** Clicks: the link's destination and tracking id. */
  link?: { url: string; trackingId: string };
  /** Opens and clicks: the client's user agent, and its address as the IP setting retains it. */
  userAgent?: string | null;
  ip?: string | null;
  /**
   * Opens and clicks: the current verdict (docs/measurement.md). `machine` is true when a program
   * (Apple's privacy prefetch, a security scanner, a bot) made the hit, not a person reading.
   */
  machine?: boolean;
  /**
   * Opens and clicks: who made the hit. CONTACT_UNSUBSCRIBED: where the unsubscribe came from
   * (`one-click`, `page`, `mailto`, `api`).
   */
  source?: HitSource | UnsubscribeEventDetails["source"];
  /** Why, each a short sentence. */
  reasons?: string[];
  /** EMAIL_BOUNCED, EMAIL_COMPLAINED, CONTACT_UNSUBSCRIBED: the recipient concerned (lowercased). */
  recipient?: string;
  /** EMAIL_BOUNCED: `hard` (permanent; the address is suppressed) or `soft` (transient). */
  bounceType?: "hard" | "soft";
  /** EMAIL_BOUNCED: the enhanced status code (`5.1.1`), or null when none was given. */
  status?: string | null;
  /** EMAIL_BOUNCED: the receiving server's words, or null. */
  diagnostic?: string | null;
  /** EMAIL_COMPLAINED: the report's feedback type (`abuse`, ...). */
  feedbackType?: string;
}

/** The public id of an event log row. */
export function eventIdOf(id: number): string {
  return `evt_${id}`;
}

/** The event log row of a public id; undefined when it is not one. */
export function parseEventId(id: string): number | undefined {
  const match = /^evt_([1-9][0-9]{0,15})$/.exec(id);
  const value = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(value) ? value : undefined;
}

/** The body of an event: one builder for webhook deliveries and the events API. */
export function toWebhookEvent(event: StoredEvent): WebhookEvent {
  const data: WebhookEventData = {
    emailId: event.email.id,
    emailTrackingId: event.email.trackingId,
    from: event.email.from,
    to: event.email.to,
    subject: event.email.subject,
    campaign: event.campaign,
    metadata: event.email.metadata === null ? null : JSON.parse(event.email.metadata),
    providerMessageId: event.email.providerMessageId,
    tags: event.email.tags,
  };
  if (event.details) {
    Object.assign(data, event.details);
  } else if (event.type === "open" || event.type === "click") {
    if (event.link) data.link = { url: event.link.url, trackingId: event.link.id };
    data.userAgent = event.userAgent;
    data.ip = event.ip;
    if (event.verdict) {
      data.machine = event.verdict.machine;
      data.source = event.verdict.source;
      data.reasons = event.verdict.reasons;
    }
  }
  return {
    id: eventIdOf(event.id),
    type: webhookEventTypeOf(event.type),
    createdAt: event.occurredAt.toISOString(),
    data,
  };
}
