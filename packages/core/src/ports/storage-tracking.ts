/**
 * The tracking store: lookups by unguessable id for the pixel and the click redirect, and the
 * batched write path that records hits. Every rollup a hit feeds (per-email counters, link clicks,
 * per-contact and per-day totals) and its webhook outbox rows commit in the same transaction as
 * the event rows, so statistics never drift from history.
 */
import type { HitVerdict } from "../measurement/hit-verdict.js";
import type { EmailStatus } from "./storage-emails.js";

/** What the tracking endpoints need to know about an email. */
export interface TrackedEmail {
  id: string;
  organizationId: string;
  campaignId: string | null;
  trackingId: string;
  status: EmailStatus;
  sentAt: Date | null;
  recipient: string;
  subject: string;
}

/** What the click endpoint needs to know about a link. */
export interface TrackedLinkTarget {
  id: string;
  url: string;
  email: TrackedEmail;
}

/**
 * An open or click, with its raw signals (kept so it can be re-classified) and its verdict. Human
 * hits (`verdict.machine` false) also count in the human rollups.
 */
export interface TrackingEventRecord {
  type: "open" | "click";
  organizationId: string;
  emailId: string;
  campaignId: string | null;
  /** The clicked link's tracking id (clicks only). */
  linkId: string | null;
  occurredAt: Date;
  /** As the IP setting retains it (the verdict was reached on the full address). */
  ip: string | null;
  userAgent: string | null;
  /** The request's method; the tracking endpoints record GET only. */
  method: "GET" | "HEAD";
  /** Milliseconds since the email was sent; null when its send time is unknown. */
  msSinceSent: number | null;
  verdict: HitVerdict;
}

/**
 * One hit to record. Its event row is also the webhook event (EMAIL_OPENED, EMAIL_CLICKED): the
 * store queues a delivery per subscribed active webhook, whose body is built from the row when
 * sent, so recording a hit serialises nothing.
 */
export interface TrackingHit {
  event: TrackingEventRecord;
}

/** Tracking lookups and event recording. Lookups are by unguessable id, across organizations. */
export interface TrackingStore {
  /**
   * The emails with these open-tracking ids, in any order; ids nobody has are left out. Batched:
   * the tracking endpoints look up every cache miss of an event-loop turn in one call.
   */
  findEmails(trackingIds: readonly string[]): Promise<TrackedEmail[]>;
  /** The links with these tracking ids, each with its email, in any order; unknown ids are left out. */
  findLinks(linkIds: readonly string[]): Promise<TrackedLinkTarget[]>;
  /**
   * Records a batch of hits in one transaction: appends the events and bumps, aggregated over the
   * batch, each email's counters (a click also marks the email opened), each link's clicks, the
   * contact and daily rollups, and queues a webhook delivery per (event, active webhook of its
   * organization subscribed to its type). All or nothing. Hits of an
   * email that is not `sent` are skipped. Resolves to the number of hits recorded.
   *
   * Several writers (processes) may record concurrently; implementations must not deadlock or
   * lose counts then (retry a transaction the database aborted for a lock conflict).
   */
  recordEvents(hits: readonly TrackingHit[]): Promise<number>;
  /**
   * How many `recordEvents` calls the tracking writer may run at once (default 1). More than one
   * pays where a batch is mostly a round trip: the next batch travels, and waits its turn, while
   * the previous one runs. Concurrent calls must still record every hit exactly once.
   */
  readonly concurrentBatches?: number;
}
