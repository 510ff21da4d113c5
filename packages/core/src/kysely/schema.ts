/**
 * Table types of the Kysely store. Times are UTC epoch milliseconds: one representation in
 * SQLite and PostgreSQL, integer comparisons, and day buckets by integer division. PostgreSQL's
 * `pg` driver returns BIGINT and COUNT as strings, hence `number | string` on read paths and
 * `Number()` in the mappers.
 */
import type { ColumnType, Generated } from "kysely";
import type { InboundMessageKind } from "../ports/storage-inbound-messages.js";

/** A BIGINT column: written as number, read as number (SQLite) or string (pg). */
type Int64 = ColumnType<number | string, number, number>;
/** A nullable BIGINT column. */
type NullableInt64 = ColumnType<number | string | null, number | null | undefined, number | null>;
/** An INTEGER counter with a database default of 0 (INTEGER reads as number in both drivers). */
type Counter = ColumnType<number, number | undefined, number>;

export interface OrganizationTable {
  id: string;
  name: string;
  created_at: Int64;
  custom_domain: string | null;
  custom_domain_verified_at: NullableInt64;
}

export interface ApiKeyTable {
  id: string;
  organization_id: string;
  name: string | null;
  key_hash: string;
  key_prefix: string;
  created_at: Int64;
  revoked_at: NullableInt64;
}

export interface CampaignTable {
  id: string;
  organization_id: string;
  name: string;
  created_at: Int64;
  archived_at: NullableInt64;
}

/**
 * Email status: `sending` until the provider answers, then `sent` or `failed`; `unknown` when a
 * crash left it `sending` (crash reconciliation, counted like `sent`); `suppressed` when every
 * `to` was on the suppression list and nothing was sent (counted nowhere); `bounced` when it was
 * sent and every `to` hard-bounced since (migration 0009; counted like `sent`).
 */
export type EmailStatusColumn = "sending" | "sent" | "failed" | "unknown" | "suppressed" | "bounced";

/**
 * The statuses an email is counted (statistics, contacts) and tracked (opens, clicks) in: `sent`;
 * `unknown`, which a crash left undecided and which was probably delivered; and `bounced`, which
 * was sent (and counted when it was) before its recipients' servers returned it, so that the
 * rollups counted at send time and the counts read from emails keep agreeing
 * (docs/deliverability.md).
 */
export const countedEmailStatuses: readonly EmailStatusColumn[] = ["sent", "unknown", "bounced"];

export interface EmailTable {
  id: string;
  organization_id: string;
  campaign_id: string | null;
  tracking_id: string;
  status: EmailStatusColumn;
  /** `send` (we delivered it) or `register` (another system did; POST /api/emails). */
  origin: "send" | "register";
  provider_message_id: string | null;
  from_address: string;
  sender: string;
  reply_to: string | null;
  subject: string;
  /** The first `to` address, lowercased: the campaign email item's `recipient`. */
  recipient: string;
  metadata: string | null;
  track_opens: number;
  track_clicks: number;
  open_count: Counter;
  click_count: Counter;
  /** First open or click: an email counts as opened from then on. */
  first_opened_at: NullableInt64;
  first_clicked_at: NullableInt64;
  /** The same four counters over human hits only (migration 0007; docs/measurement.md). */
  human_open_count: Counter;
  human_click_count: Counter;
  human_first_opened_at: NullableInt64;
  human_first_clicked_at: NullableInt64;
  failure_reason: string | null;
  created_at: Int64;
  sent_at: NullableInt64;
  /**
   * Migration 0008: JSON array of the recipients dropped as suppressed (`{kind, address, reason}`),
   * null when none was.
   */
  suppressed_recipients: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface EmailRecipientTable {
  email_id: string;
  organization_id: string;
  kind: "to" | "cc" | "bcc";
  position: number;
  /** Lowercased address: contacts are case-insensitive. */
  address: string;
  /** The address as the caller wrote it, with its display name when given. */
  display: string;
}

/** Added by migration 0005_email_tags: an email's labels, one row per name. */
export interface EmailTagTable {
  email_id: string;
  organization_id: string;
  position: number;
  name: string;
  value: string;
}

/** Added by migration 0005_idempotency_keys. */
export interface IdempotencyKeyTable {
  organization_id: string;
  idempotency_key: string;
  fingerprint: string;
  /** Null while the first request runs. */
  response_status: number | null;
  response_body: string | null;
  created_at: Int64;
  expires_at: Int64;
}

export interface LinkTable {
  /** The link's tracking id (the last segment of its tracking URL). */
  id: string;
  email_id: string;
  organization_id: string;
  campaign_id: string | null;
  url: string;
  position: number;
  click_count: Counter;
  created_at: Int64;
}

export interface EventTable {
  id: Generated<number>;
  organization_id: string;
  email_id: string;
  campaign_id: string | null;
  link_id: string | null;
  /**
   * `sent` rows (migration 0004) make this table the event log of the events API and the outbox;
   * `bounce`, `complaint` and `unsubscribe` rows (migration 0009) join it.
   */
  type: "sent" | "open" | "click" | "bounce" | "complaint" | "unsubscribe";
  occurred_at: Int64;
  /** Truncated (/24, /48) by default; see the tracking options. Kept to classify machine opens. */
  ip: string | null;
  user_agent: string | null;
  /**
   * Migration 0009: JSON of what a `bounce`, `complaint` or `unsubscribe` event reports (recipient,
   * bounce type, status, diagnostic, feedback type, source); null on the other types.
   */
  details: ColumnType<string | null, string | null | undefined, string | null>;
  /** Opens and clicks (migration 0007): the request's method, and milliseconds since the send. */
  method: string | null;
  ms_since_sent: NullableInt64;
  /** The current verdict (docs/measurement.md): 0/1, a source, and a JSON array of reasons. */
  machine: Counter;
  source: ColumnType<string, string | undefined, string>;
  reasons: ColumnType<string, string | undefined, string>;
}

/** Per-contact rollup: the contact list pages over this table, not over history. */
export interface ContactTable {
  organization_id: string;
  address: string;
  total_emails: Counter;
  total_opens: Counter;
  total_clicks: Counter;
  human_opens: Counter;
  human_clicks: Counter;
  first_seen: Int64;
  last_activity: Int64;
}

/** Per-day rollup (UTC days since the epoch); campaign_id '' for standalone emails. */
export interface DailyStatTable {
  organization_id: string;
  campaign_id: string;
  day: number;
  emails: Counter;
  opens: Counter;
  clicks: Counter;
  human_opens: Counter;
  human_clicks: Counter;
}

export interface SendingDomainTable {
  id: string;
  organization_id: string;
  domain: string;
  status: "pending" | "verified" | "failed";
  /** JSON array of DNS records with their statuses. */
  records: string;
  dkim_selector: string;
  dkim_private_key: string;
  created_at: Int64;
  verified_at: NullableInt64;
  last_checked_at: NullableInt64;
  /** Added by migration 0003. */
  dkim_public_key: string;
  /** Added by migration 0003. */
  failed_checks: number;
}

export interface WebhookTable {
  id: string;
  organization_id: string;
  url: string;
  /** JSON array of event names. */
  events: string;
  /** Sealed with the secret box when an encryption key is configured. */
  secret: string;
  is_active: number;
  created_at: Int64;
  updated_at: Int64;
  /** During a rotation: the secret deliveries are also signed with, until it expires. */
  previous_secret: string | null;
  previous_secret_expires_at: NullableInt64;
  /** The first failed attempt since the last success; null while deliveries succeed. */
  failing_since: NullableInt64;
}

/** Delivery state: `failed` will be retried; `dead` will not (retries exhausted, or a 410). */
export type DeliveryStatusColumn = "pending" | "delivered" | "failed" | "dead";

/** The webhook outbox: one row per (event, webhook), written in the transaction of the event. */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  organization_id: string;
  webhook_id: string;
  /** The `mailpulse_event` row delivered; its body is built from it when sent. */
  event_id: Int64;
  event_type: string;
  status: DeliveryStatusColumn;
  attempts: Counter;
  next_attempt_at: Int64;
  /** While a worker holds the row; a row whose lease expired is claimed again. */
  lease_expires_at: NullableInt64;
  last_attempt_at: NullableInt64;
  last_status: number | null;
  last_error: string | null;
  created_at: Int64;
  delivered_at: NullableInt64;
}

/** One delivery attempt: what the receiver answered, or why nothing came back. */
export interface WebhookAttemptTable {
  id: Generated<number>;
  delivery_id: Int64;
  organization_id: string;
  attempted_at: Int64;
  status: number | null;
  duration_ms: number;
  error: string | null;
  /** The first KiB of the receiver's answer. */
  response_excerpt: string | null;
}

/** Added by migration 0008_suppressions: the per-organization suppression list. */
export interface SuppressionTable {
  organization_id: string;
  /** Trimmed and lowercased. */
  address: string;
  reason: "hard_bounce" | "complaint" | "unsubscribe" | "manual";
  source_email_id: string | null;
  status: string | null;
  diagnostic: string | null;
  created_at: Int64;
  updated_at: Int64;
}

/**
 * Added by migration 0009_delivery_feedback: bounces, delays, complaints and unsubscribes, one row
 * per (email, recipient, kind).
 */
export interface DeliveryFeedbackTable {
  id: Generated<number>;
  organization_id: string;
  email_id: string;
  campaign_id: string | null;
  /** Normalised (trimmed, lowercased). */
  recipient: string;
  kind: "bounce" | "delay" | "complaint" | "unsubscribe";
  /** Bounces: `hard` or `soft`. */
  bounce_type: "hard" | "soft" | null;
  status: string | null;
  diagnostic: string | null;
  /** Complaints: ARF `Feedback-Type` (or the provider's), lowercased. */
  feedback_type: string | null;
  /** Where it was learnt: `inbound-smtp`, `send-time`, `sns`; unsubscribes `one-click`, `page`, `mailto`, `api`. */
  source: string;
  occurred_at: Int64;
}

/** Added by migration 0009_delivery_feedback: secrets of the installation. */
export interface InstanceSecretTable {
  name: string;
  value: string;
  created_at: Int64;
}

/** Added by migration 0010_inbound_messages: the inbound log, bounded by a purge. */
export interface InboundMessageTable {
  id: Generated<number>;
  organization_id: string | null;
  email_id: string | null;
  received_at: Int64;
  envelope_from: string;
  /** JSON array of the accepted RCPT TO addresses. */
  envelope_to: string;
  kind: InboundMessageKind;
  summary: string;
  subject: string | null;
  message_id: string | null;
}

/** The whole schema, keyed by table name. All names carry the `mailpulse_` prefix. */
export interface MailPulseDatabase {
  mailpulse_organization: OrganizationTable;
  mailpulse_api_key: ApiKeyTable;
  mailpulse_campaign: CampaignTable;
  mailpulse_email: EmailTable;
  mailpulse_email_recipient: EmailRecipientTable;
  mailpulse_email_tag: EmailTagTable;
  mailpulse_idempotency_key: IdempotencyKeyTable;
  mailpulse_link: LinkTable;
  mailpulse_event: EventTable;
  mailpulse_contact: ContactTable;
  mailpulse_daily_stat: DailyStatTable;
  mailpulse_sending_domain: SendingDomainTable;
  mailpulse_webhook: WebhookTable;
  mailpulse_webhook_delivery: WebhookDeliveryTable;
  mailpulse_webhook_attempt: WebhookAttemptTable;
  mailpulse_suppression: SuppressionTable;
  mailpulse_delivery_feedback: DeliveryFeedbackTable;
  mailpulse_instance_secret: InstanceSecretTable;
  mailpulse_inbound_message: InboundMessageTable;
}
