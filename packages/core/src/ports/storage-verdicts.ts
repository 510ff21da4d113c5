/**
 * The verdicts of stored opens and clicks, read and revised (docs/measurement.md): what a revision
 * (a pattern found by later hits) and a re-classification over history (`mailpulse reclassify`)
 * go through. Revising a verdict that flips `machine` moves the hit between the human rollups
 * (per email, contact and day) in the same transaction, so human figures never drift from the
 * verdicts.
 */
import type { HitVerdict } from "../measurement/hit-verdict.js";

/** A stored open or click with the signals classification reads. */
export interface StoredHit {
  eventId: number;
  type: "open" | "click";
  method: "GET" | "HEAD";
  userAgent: string | null;
  /** As retained by the IP setting. */
  ip: string | null;
  occurredAt: Date;
  /** Milliseconds since the send (computed from the send time for hits recorded before 0007). */
  msSinceSent: number | null;
  linkId: string | null;
  verdict: HitVerdict;
}

/** An email that has hits, for walking history. */
export interface EmailWithHits {
  organizationId: string;
  emailId: string;
}

/** A new verdict for a stored hit. */
export interface VerdictRevision {
  eventId: number;
  verdict: HitVerdict;
}

/** Reads and revises stored verdicts. */
export interface VerdictStore {
  /** The email's opens and clicks, oldest first (by time, then id); empty for another organization's email. */
  hitsOfEmail(organizationId: string, emailId: string): Promise<StoredHit[]>;
  /**
   * Sent emails with at least one open or click, ordered by (organization id, email id), strictly
   * after `after`, at most `limit`; of one organization, or of all when `organizationId` is undefined.
   */
  emailsWithHits(
    organizationId: string | undefined,
    after: EmailWithHits | undefined,
    limit: number,
  ): Promise<EmailWithHits[]>;
  /**
   * Stores new verdicts for hits of one email, in one transaction: each event's verdict, and for
   * each hit whose `machine` flips, its human counts moved (email counters and first human open
   * and click, its contacts, its day). Revisions of events not of this email are ignored.
   * Resolves to the number of hits whose `machine` flipped.
   */
  reviseVerdicts(
    organizationId: string,
    emailId: string,
    revisions: readonly VerdictRevision[],
  ): Promise<number>;
}
