/**
 * Stores for tracked emails and their events. The rollups (per-email counters, per-contact and
 * per-day totals) and the webhook outbox are written in the same transaction as the fact they
 * count, so statistics never drift from history and no event is lost between the two.
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

/** A recipient of an email. Only `to` recipients are contacts. */
export interface EmailRecipientRecord {
  kind: "to" | "cc" | "bcc";
  /** Lowercased address. */
  address: string;
  /** As the caller wrote it, e.g. `Ann <ann@example.com>`. */
  display: string;
}

/** A tracked link occurrence; `id` is its tracking id. */
export interface LinkRecord {
  id: string;
  url: string;
}

/** A new email with everything that must exist before it is sent. */
export interface NewEmailRecord {
  id: string;
  organizationId: string;
  campaignId: string | null;
  /** The open-tracking id (pixel URL). */
  trackingId: string;
  /** `send`: POST /api/send delivers it. `register`: another system sent it (POST /api/emails). */
  origin: "send" | "register";
  /** The `from` the caller gave ('' when a registered email has none). */
  fromAddress: string;
  /** The sender actually used. */
  sender: string;
  replyTo: string | null;
  subject: string;
  /** JSON text of the caller's metadata, or null. */
  metadata: string | null;
  trackOpens: boolean;
  trackClicks: boolean;
  /** At least one `to` recipient; the first is the campaign email item's `recipient`. */
  recipients: EmailRecipientRecord[];
  /** Link occurrences in document order. */
  links: LinkRecord[];
  createdAt: Date;
}

/** Email status: `sending` until the provider answers, then `sent` or `failed`. */
export type EmailStatus = "sending" | "sent" | "failed";

/** A stored email (what in-process callers and tests read back). */
export interface EmailRecord extends Omit<NewEmailRecord, "links" | "recipients"> {
  status: EmailStatus;
  providerMessageId: string | null;
  failureReason: string | null;
  sentAt: Date | null;
  openCount: number;
  clickCount: number;
}

/** How {@link EmailStore.markSent} records a delivery. */
export interface SentMark {
  providerMessageId: string | null;
  sentAt: Date;
  /** Queued for subscribed webhooks in the same transaction. */
  event?: OutboxEvent;
}

/** Emails. */
export interface EmailStore {
  /**
   * Inserts the email with its recipients and links in one transaction. With `sent`, the email
   * is stored as sent at once (registered emails) and counted like {@link markSent} does.
   */
  create(email: NewEmailRecord, sent?: SentMark): Promise<void>;
  /**
   * `sending` -> `sent`: stores the provider id, counts the email in the contact and daily
   * rollups, and queues `event`; all or nothing. False when the email is not `sending`.
   */
  markSent(organizationId: string, emailId: string, mark: SentMark): Promise<boolean>;
  /** `sending` -> `failed` with a reason; failed emails are counted nowhere. */
  markFailed(organizationId: string, emailId: string, reason: string): Promise<void>;
  /** The email of this organization, or `undefined`. */
  get(organizationId: string, emailId: string): Promise<EmailRecord | undefined>;
  /** The organization's emails of every status, newest first, at most `limit`. */
  list(organizationId: string, limit: number): Promise<EmailRecord[]>;
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

/** A sending domain as the sender rule needs it. */
export interface VerifiedSendingDomain {
  domain: string;
  dkimSelector: string;
  /** As stored: PEM, or sealed by the `encryptionKey` (the service opens it). */
  dkimPrivateKey: string;
}

/** Sending-domain status: `pending` until every DNS record matched, then `verified`. */
export type SendingDomainStatus = "pending" | "verified" | "failed";

/** A sending domain row. */
export interface SendingDomainRecord extends VerifiedSendingDomain {
  id: string;
  organizationId: string;
  status: SendingDomainStatus;
  /** JSON text of the DNS records with their statuses. */
  records: string;
  /** The DKIM public key (base64 SubjectPublicKeyInfo), published by the platform's zone. */
  dkimPublicKey: string;
  createdAt: Date;
  verifiedAt: Date | null;
  /** When the records were last looked up, or null. */
  lastCheckedAt: Date | null;
  /** Re-checks of a verified domain that failed in a row (reset by a successful check). */
  failedChecks: number;
}

/** The outcome of a verification, saved by {@link SendingDomainStore.saveCheck}. */
export interface SendingDomainCheck {
  status: SendingDomainStatus;
  records: string;
  verifiedAt: Date | null;
  lastCheckedAt: Date;
  failedChecks: number;
}

/** Result of {@link SendingDomainStore.create}: `exists` when the organization already has the name. */
export type CreateSendingDomainResult = "created" | "exists";

/**
 * Result of {@link SendingDomainStore.saveCheck}: `missing` for an unknown or foreign id, `taken`
 * when the check would verify a domain another organization has verified (nothing is saved).
 */
export type SaveSendingDomainCheckResult = "saved" | "missing" | "taken";

/** Sending domains. A name is unique per organization; verified by one organization at most. */
export interface SendingDomainStore {
  /** Inserts a domain unless the organization already has one with this name. */
  create(domain: SendingDomainRecord): Promise<CreateSendingDomainResult>;
  /** The organization's verified sending domain with this (lowercase) name, or `undefined`. */
  findVerified(organizationId: string, domain: string): Promise<VerifiedSendingDomain | undefined>;
  /** Whether an organization other than `organizationId` has verified this name. */
  isVerifiedElsewhere(organizationId: string, domain: string): Promise<boolean>;
  /** The organization's domain with this id, or `undefined`. */
  get(organizationId: string, id: string): Promise<SendingDomainRecord | undefined>;
  /** The organization's domains, oldest first. */
  list(organizationId: string): Promise<SendingDomainRecord[]>;
  /** Every organization's domains, oldest first (the platform's DKIM records, re-checks). */
  listAll(): Promise<SendingDomainRecord[]>;
  /** Deletes the organization's domain; false when there was none. */
  delete(organizationId: string, id: string): Promise<boolean>;
  /**
   * Saves a verification outcome. Atomic with the "verified by one organization" rule: when
   * `check.status` is `verified` and another organization holds the name verified, nothing is
   * saved and the result is `taken`.
   */
  saveCheck(
    organizationId: string,
    id: string,
    check: SendingDomainCheck,
  ): Promise<SaveSendingDomainCheckResult>;
}
