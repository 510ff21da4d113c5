/**
 * The tracking store: lookups by unguessable id for the pixel and the click redirect, and the
 * batched write path that records hits. Every rollup a hit feeds (per-email counters, link clicks,
 * per-contact and per-day totals) and its webhook outbox rows commit in the same transaction as
 * the event rows, so statistics never drift from history.
 */
import type { EmailStatus, OutboxEvent } from "./storage-emails.js";

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

/** An open or click, with the raw signals kept to classify machine opens later. */
export interface TrackingEventRecord {
  type: "open" | "click";
  organizationId: string;
  emailId: string;
  campaignId: string | null;
  /** The clicked link's tracking id (clicks only). */
  linkId: string | null;
  occurredAt: Date;
  ip: string | null;
  userAgent: string | null;
}

/** Tracking lookups and event recording. Lookups are by unguessable id, across organizations. */
export interface TrackingStore {
  /** The email with this open-tracking id, or `undefined`. */
  findEmail(trackingId: string): Promise<TrackedEmail | undefined>;
  /** The link with this tracking id and its email, or `undefined`. */
  findLink(linkId: string): Promise<TrackedLinkTarget | undefined>;
  /**
   * Appends the event and, in the same transaction, bumps the email's counters (a click also
   * marks the email opened), the link's clicks, the contact and daily rollups, and queues
   * `webhookEvent`. The email must be `sent`.
   */
  recordEvent(event: TrackingEventRecord, webhookEvent?: OutboxEvent): Promise<void>;
}
