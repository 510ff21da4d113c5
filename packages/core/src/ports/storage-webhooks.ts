/**
 * Webhooks and their outbox. An event is queued as one delivery row per active webhook of the
 * organization subscribed to its type, in the transaction that writes the event (a sent email, a
 * recorded hit), so no event is lost between the two; the delivery worker sends them.
 */

/**
 * Webhook event names (the spec's `events` values, and the delivery lifecycle's bounces,
 * complaints and unsubscribes; docs/webhooks.md).
 */
export type WebhookEventType =
  | "EMAIL_SENT"
  | "EMAIL_OPENED"
  | "EMAIL_CLICKED"
  | "EMAIL_BOUNCED"
  | "EMAIL_COMPLAINED"
  | "CONTACT_UNSUBSCRIBED";

/** A webhook as stored. `secret` and `previousSecret` are as stored (sealed when encrypting). */
export interface WebhookRecord {
  id: string;
  organizationId: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
  /** During a secret rotation: the old secret, also used to sign until it expires. */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  isActive: boolean;
  /** The first failed attempt since the last success; null while deliveries succeed. */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What an update may change; `updatedAt` always. */
export interface WebhookPatch {
  url?: string;
  events?: WebhookEventType[];
  isActive?: boolean;
  secret?: string;
  previousSecret?: string | null;
  previousSecretExpiresAt?: Date | null;
  updatedAt: Date;
}

/** Webhooks of organizations. */
export interface WebhookStore {
  /**
   * Inserts a webhook unless the organization already has `limit` of them (then `false`, and
   * nothing is written). Two concurrent creates cannot both pass the limit.
   */
  create(webhook: WebhookRecord, limit: number): Promise<boolean>;
  /** Webhooks of the organization, oldest first. */
  list(organizationId: string): Promise<WebhookRecord[]>;
  /** One webhook; `undefined` when unknown or of another organization. */
  find(organizationId: string, id: string): Promise<WebhookRecord | undefined>;
  /** Webhooks by id across organizations, for the delivery worker. */
  findForDelivery(ids: readonly string[]): Promise<WebhookRecord[]>;
  /** Applies the patch; the updated webhook, or `undefined` when unknown or foreign. */
  update(organizationId: string, id: string, patch: WebhookPatch): Promise<WebhookRecord | undefined>;
  /** Deletes the webhook with its deliveries and their attempts; `false` when unknown or foreign. */
  delete(organizationId: string, id: string): Promise<boolean>;
}
