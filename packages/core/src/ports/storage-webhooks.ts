/**
 * Webhooks and their outbox. An event is queued as one delivery row per active webhook of the
 * organization subscribed to its type, in the transaction that writes the fact it reports (a sent
 * email, a recorded hit), so no event is lost between the two; the delivery worker sends them.
 */

/** Webhook event names (the spec's `events` values). */
export type WebhookEventType = "EMAIL_SENT" | "EMAIL_OPENED" | "EMAIL_CLICKED";

/** An event for the webhook outbox: one delivery row per active webhook subscribed to `type`. */
export interface OutboxEvent {
  type: WebhookEventType;
  /** The JSON body every subscribed webhook receives (signed per webhook at delivery). */
  payload: string;
  createdAt: Date;
}

/** A webhook as stored. */
export interface WebhookRecord {
  id: string;
  organizationId: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A queued delivery of the outbox. */
export interface WebhookDeliveryRecord {
  id: number;
  webhookId: string;
  eventType: WebhookEventType;
  payload: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  createdAt: Date;
}

/** Webhooks and their outbox. */
export interface WebhookStore {
  /** Inserts a webhook. */
  create(webhook: WebhookRecord): Promise<void>;
  /** Webhooks of the organization, oldest first. */
  list(organizationId: string): Promise<WebhookRecord[]>;
  /** Queued deliveries of the organization, oldest first. */
  listDeliveries(organizationId: string): Promise<WebhookDeliveryRecord[]>;
}
