/**
 * The storage port: small domain-shaped stores, each method with its contract.
 *
 * Contracts shared by every store:
 * - Every read and write is scoped by organization id; a row of another organization is treated
 *   exactly like a missing row (`undefined` / `false`), so services answer 404 for both.
 * - Each method is atomic: it either writes everything it describes or nothing.
 * - Times are `Date`s in and out; storage keeps them as UTC epoch milliseconds.
 *
 * The Kysely implementation (`@mailpulse/core/kysely`) serves SQLite and PostgreSQL; the
 * contract suite in `@mailpulse/testing/contracts` checks any implementation.
 */
import type { ApiKeyStore } from "./storage-api-keys.js";
import type { CampaignStore } from "./storage-campaigns.js";
import type { DeliveryStore } from "./storage-deliveries.js";
import type { DeliveryFeedbackStore } from "./storage-delivery-feedback.js";
import type { EmailStore } from "./storage-emails.js";
import type { EventStore } from "./storage-events.js";
import type { IdempotencyStore } from "./storage-idempotency.js";
import type { InboundMessageStore } from "./storage-inbound-messages.js";
import type { InstanceSecretStore } from "./storage-instance-secrets.js";
import type { OrganizationStore } from "./storage-organizations.js";
import type { SendingDomainStore } from "./storage-sending-domains.js";
import type { StatsStore } from "./storage-stats.js";
import type { SuppressionStore } from "./storage-suppressions.js";
import type { TrackingStore } from "./storage-tracking.js";
import type { VerdictStore } from "./storage-verdicts.js";
import type { WebhookStore } from "./storage-webhooks.js";

// One file per store; this facade is what the rest of core imports the port's types from.
export type * from "./storage-api-keys.js";
export type * from "./storage-campaigns.js";
export type * from "./storage-deliveries.js";
export type * from "./storage-delivery-feedback.js";
export type * from "./storage-emails.js";
export type * from "./storage-events.js";
export type * from "./storage-idempotency.js";
export type * from "./storage-inbound-messages.js";
export type * from "./storage-instance-secrets.js";
export type * from "./storage-organizations.js";
export type * from "./storage-sending-domains.js";
export type * from "./storage-stats.js";
export type * from "./storage-suppressions.js";
export type * from "./storage-tracking.js";
export type * from "./storage-verdicts.js";
export type * from "./storage-webhooks.js";

/**
 * A connection `rate-limiter-flexible` can count in: a better-sqlite3 `Database`, or a pg `Pool`
 * with the schema that holds MailPulse's tables. Typed loosely: core depends on neither driver.
 */
export type RateLimitBackend =
  | { kind: "better-sqlite3"; database: unknown }
  | { kind: "pg"; pool: unknown; schema?: string };

/** Everything MailPulse keeps. */
export interface Storage {
  organizations: OrganizationStore;
  apiKeys: ApiKeyStore;
  campaigns: CampaignStore;
  emails: EmailStore;
  tracking: TrackingStore;
  stats: StatsStore;
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  events: EventStore;
  sendingDomains: SendingDomainStore;
  /** Idempotency keys of the sending routes. */
  idempotencyKeys: IdempotencyStore;
  /**
   * Secrets of the installation (the signing key of recipient tokens when none is configured).
   * Optional for storages of your own: without it, configure `signingSecret`.
   */
  instanceSecrets?: InstanceSecretStore;
  /**
   * The database connection the API's rate limit may keep its counters in (the migrated
   * `mailpulse_rate_limit` table), so several processes on one database share one quota.
   * Absent on storages that offer none: the rate limit then counts in each process's memory.
   */
  rateLimitBackend?: RateLimitBackend;
  /** Stored verdicts of opens and clicks, revised when later hits or new rules judge them again. */
  verdicts: VerdictStore;
  /** The per-organization suppression list the send checks (docs/deliverability.md). */
  suppressions: SuppressionStore;
  /** Bounces, delays, complaints and unsubscribes, with their events (docs/deliverability.md). */
  deliveryFeedback: DeliveryFeedbackStore;
  /** The inbound log: what the inbound SMTP receiver accepted, bounded (docs/deliverability.md). */
  inboundMessages: InboundMessageStore;
  /**
   * Whether an error a store threw says the storage's tables do not exist (it was never
   * migrated), so the log can name the fix instead of a driver's message. Optional: without it,
   * such an error is logged as any unexpected one.
   */
  isUnmigrated?(error: unknown): boolean;
  /** Creates or upgrades the schema. Idempotent; safe to call on every start. */
  migrate(): Promise<void>;
  /** Closes connections the storage opened itself (a pool passed in by the host stays open). */
  close(): Promise<void>;
}
