import type { LookupFunction } from "node:net";
import type { RateLimitOptions } from "./http/rate-limit/rate-limit-options.js";
import type { Logger } from "./logger.js";
import type { TrustProxy } from "./measurement/client-address.js";
import type { ClassificationRule } from "./measurement/hit-verdict.js";
import type { Clock } from "./ports/clock.js";
import type { DnsResolver } from "./ports/dns-resolver.js";
import type { MailProvider } from "./ports/mail-provider.js";
import type { Storage } from "./ports/storage.js";
import type { WebhookSender } from "./ports/webhook-sender.js";
import type { DomainHostOptions } from "./services/domains/domain-hosts.js";
import type { FromAddressPolicy } from "./services/sending/sender-rule.js";
import type { PlanLimits } from "./services/service-context.js";
import type { SnsOptions } from "./services/sns-notification-service.js";
import type { IpAddressRetention } from "./services/tracking/client-ip.js";

/** How the tracking endpoints record hits. Every field has a default. */
export interface TrackingOptions {
  /** How much of the client IP events keep. Default `truncated` (/24 for IPv4, /48 for IPv6). */
  ipAddresses?: IpAddressRetention;
  /**
   * When the pixel or redirect is answered. `after-commit` (default): once the batch holding the
   * hit has committed, so an answered hit is a recorded hit, even across a crash. `immediately`:
   * at once; a crash loses at most the hits still queued.
   */
  acknowledge?: "after-commit" | "immediately";
  /** Hits written per transaction at most. Default 500. */
  batchSize?: number;
  /** Hits waiting to be written at most; past it new hits wait for room (never dropped). Default 10,000. */
  queueSize?: number;
  /** Tracking ids and link ids kept in the lookup cache (each a few hundred bytes). Default 50,000. */
  cacheSize?: number;
  /**
   * Which proxies to believe about the client's address (`X-Forwarded-For`): `false` (default),
   * `true` (all), a number of hops, or a list of the proxies' CIDRs. The address is what opens
   * and clicks are judged on (docs/measurement.md). The Express and Fastify adapters pass the
   * framework's `req.ip`, which already follows the host's own trust-proxy setting: leave this
   * `false` there unless the adapter is given the socket's address.
   */
  trustProxy?: TrustProxy;
  /**
   * Rules of your own for judging hits, tried before the built-in ones (docs/measurement.md),
   * e.g. `[addressRangeRule({ cidrs: ["198.51.100.0/24"], reason: "Acme's mail gateway" })]`.
   */
  classificationRules?: readonly ClassificationRule[];
}

/**
 * Sending domains and the custom tracking domain (docs/domains.md). Every field has a default;
 * host names default to names under `platformDomain`.
 */
export interface DomainOptions extends DomainHostOptions {
  /** How DNS is read. Default: `nodeDnsResolver({ servers: dnsServers, timeoutMs: dnsTimeoutMs })`. */
  dnsResolver?: DnsResolver;
  /** DNS servers of the default resolver, `ip` or `ip:port`. Default: the system's resolvers. */
  dnsServers?: readonly string[];
  /** Per-query timeout of the default resolver in milliseconds. Default 5000. */
  dnsTimeoutMs?: number;
  /** How often `mailpulse.start()` re-checks each verified sending domain. Default 24 h. */
  recheckIntervalMs?: number;
  /**
   * Sending domains an organization may have (each costs an RSA key generation). Default 50;
   * adding one more answers 409 (docs/limits.md).
   */
  maxPerOrganization?: number;
}

/** What bounces do to the suppression list (docs/deliverability.md). */
export interface DeliverabilityOptions {
  /**
   * Soft-bounced emails of one address (a full mailbox, a greylisting that never cleared; each
   * email counts once) within {@link softBounceWindowDays} that suppress the address, with reason
   * `hard_bounce` and a diagnostic naming the rule. A whole number of at least 1. Default 3.
   */
  softBounceLimit?: number;
  /** The soft-bounce rule's window in days, ending at the latest soft bounce. At least 1. Default 7. */
  softBounceWindowDays?: number;
}

/** The inbound log of the inbound SMTP receiver (docs/deliverability.md). */
export interface InboundOptions {
  /** Rows of the inbound log older than this many days are purged (hourly). Default 30. */
  logRetentionDays?: number;
  /** At most this many rows of the inbound log are kept (the newest), across organizations. Default 100,000. */
  maxLogRows?: number;
}

/** How sends survive retries and crashes (docs/idempotency.md). */
export interface SendingOptions {
  /**
   * An email still `sending` after this long was abandoned by a process that stopped (kill -9,
   * out of memory): `start()` and then a periodic job mark it `unknown`. It must exceed the
   * longest a live send can take (nodemailer's SMTP timeouts reach 10 minutes), since another
   * process on the same database may still be sending it. Default 15 minutes.
   */
  staleAfterMs?: number;
  /**
   * How long a request waits for an earlier one with the same `Idempotency-Key` still in flight
   * before answering 409. Default 10 seconds.
   */
  idempotencyWaitMs?: number;
  /**
   * Which `From` addresses go out as given. `"rewrite-unverified"` (default, the spec's rule):
   * only those at a verified sending domain; any other is sent from the same local part at
   * `send.<platformDomain>` with `Reply-To` set to it. `"as-given"`: every one, for a
   * single-tenant host whose own relay may send for its domains (docs/sending.md). `start()`
   * says which rule is in force.
   */
  fromAddresses?: FromAddressPolicy;
}

/** Webhook delivery (docs/webhooks.md). */
export interface WebhookOptions {
  /**
   * Lets webhook URLs point at loopback and private addresses (refused by default, at creation
   * and at connect time, against SSRF): for local development and tests only.
   */
  allowPrivateNetworks?: boolean;
  /** The limit of one delivery attempt, connecting included, in milliseconds. Default 10 000. */
  timeoutMs?: number;
  /** Delivered and dead deliveries, with their attempt logs, are deleted after this many days. Default 30. */
  retentionDays?: number;
  /** Webhooks an organization may have. Default 20. */
  maxPerOrganization?: number;
  /** How often the worker looks for due deliveries, in milliseconds. Default 1000. */
  pollIntervalMs?: number;
  /** Deliveries attempted at once. Default 20. */
  batchSize?: number;
  /**
   * Attempts under way to one webhook at most, so a slow or failing receiver holds only these
   * slots of the worker and other endpoints' deliveries go beside it. Default 4.
   */
  concurrencyPerWebhook?: number;
  /** Waits after each failed attempt; its length is the number of retries. Default about 5 s to 10 h (docs). */
  retryDelaysMs?: readonly number[];
  /** A CA certificate (PEM) to trust besides the system's, for receivers with a private CA (tests). */
  ca?: string | Buffer;
  /** Posts deliveries instead of the built-in HTTPS client (its SSRF guard is then yours to keep). */
  sender?: WebhookSender;
  /**
   * Resolves host names for the URL check and the connection, with `dns.lookup`'s signature.
   * Default: the system resolver. Tests pass one that answers what they need.
   */
  lookup?: LookupFunction;
}

/** Options of `createMailPulse`. Only `storage` and `baseUrl` are required. */
export interface MailPulseOptions {
  /** Where everything is kept: `sqliteStorage(...)`, `postgresStorage(...)` or your own. Migrate it first. */
  storage: Storage;
  /**
   * The public address of the mount point, used in tracking URLs (`{baseUrl}{basePath}/t/o/<id>`),
   * e.g. `https://mail.example.com` or `https://example.com/mail` when mounted under a prefix.
   */
  baseUrl: string;
  /**
   * Lets a `mailProvider` that delivers real mail run with a `baseUrl` on a loopback or private
   * address (`http://localhost:3000`, `http://10.0.0.5`, `http://mailpulse`), which
   * `createMailPulse` otherwise refuses: readers outside could not load the pixel or follow a
   * link. For mail read on the same machine or network only (a staging relay, a local mail
   * catcher). Default false. Standalone: `MAILPULSE_ALLOW_PRIVATE_BASE_URL=true`.
   */
  allowPrivateBaseUrl?: boolean;
  /**
   * Where the API lives relative to the adapter's mount point: `/api` (default) serves
   * `/api/campaigns`, `/api/t/o/<id>`... A path of at least one segment, e.g. `/v1/mail`.
   */
  basePath?: string;
  /** Delivery provider. Default: an in-memory provider that delivers nothing and logs one line per message. */
  mailProvider?: MailProvider;
  /** Domain of unverified senders' rewritten address (`send.<platformDomain>`). Default: baseUrl's host. */
  platformDomain?: string;
  /** Plan limits per organization (sync or async). Default: unlimited. */
  limits?: (organizationId: string) => PlanLimits | Promise<PlanLimits>;
  /** Largest accepted request body in bytes; larger ones get 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Largest accepted body of the sending routes (`POST /api/send`, `POST /api/emails`), in bytes:
   * 5 MiB of HTML and 10 MiB of base64 attachments need more than the other routes. Default 20 MiB.
   */
  maxSendBodyBytes?: number;
  /** Idempotency keys and crash reconciliation of sends (docs/idempotency.md). */
  sending?: SendingOptions;
  /** Emails listed by the campaign detail, newest first. Default 500. */
  campaignDetailEmailLimit?: number;
  /**
   * Links listed by the campaign detail, most clicked first. Default 500; all of them are paged
   * through by `GET /api/campaigns/:id/links`.
   */
  campaignDetailLinkLimit?: number;
  /** Sending domains and the custom tracking domain: DNS, host names, re-checks (docs/domains.md). */
  domains?: DomainOptions;
  /**
   * 32 bytes, base64-encoded (`openssl rand -base64 32`): encrypts secrets at rest (DKIM private
   * keys) with AES-256-GCM. Without it they are stored as they are, and MailPulse says so once.
   * Keep it: sealed secrets cannot be read without the key they were sealed with.
   */
  encryptionKey?: string | Uint8Array;
  /**
   * Signs return paths and one-click unsubscribe links (at least 32 characters; keep it stable:
   * links in mail already sent are checked against it). Default: derived from `encryptionKey`
   * when given, else a key generated once and kept in the database.
   */
  signingSecret?: string;
  /**
   * Amazon SES bounces and complaints delivered by SNS to `{basePath}/sns` (docs/deliverability.md):
   * the allowed topic ARNs, and how certificates and subscribe URLs are fetched. Default: off (the
   * route answers 404).
   */
  sns?: SnsOptions;
  /** The tracking endpoints and their write path (docs/operations.md). */
  tracking?: TrackingOptions;
  /** The soft-bounce rule (docs/deliverability.md). Default: 3 soft-bounced emails within 7 days. */
  deliverability?: DeliverabilityOptions;
  /** Webhook delivery: timeouts, retention, the SSRF guard. */
  webhooks?: WebhookOptions;
  /** The inbound log kept of what `mailpulse.inbound.listen()` receives: its bounds. */
  inbound?: InboundOptions;
  /**
   * The API's rate limit per API key (429 past it, with `RateLimit-Policy`/`RateLimit` headers on
   * every authenticated answer), and an optional per-IP limit of the tracking routes
   * (docs/limits.md). Default: no rate limit; `{}` is 600 requests per minute per key, counted in
   * the storage's database.
   */
  rateLimit?: RateLimitOptions;
  /** The source of the current time. Default: the system clock. */
  clock?: Clock;
  /**
   * Where operational lines go (a delivery failure, an unexpected error with its stack, setup
   * warnings). A console-style logger (message first), or a pino-style one (fields first: pino,
   * Fastify's `app.log`), told apart by its `child` method (`StructuredLogger`). Default: the console.
   */
  logger?: Logger;
  /** Resource id generator. Default: time-ordered UUIDv7-style ids. */
  createId?: () => string;
}
