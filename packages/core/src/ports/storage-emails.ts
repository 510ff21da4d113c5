/**
 * Tracked emails with their recipients and links. The rollups a sent email feeds (per-contact and
 * per-day totals) and its webhook outbox rows are written in the same transaction as the email's
 * change of status, so statistics never drift from history and no event is lost between the two.
 */

import type { SuppressionReason } from "./storage-suppressions.js";

/** A recipient of an email. Only `to` recipients are contacts. */
export interface EmailRecipientRecord {
  kind: "to" | "cc" | "bcc";
  /** Lowercased address. */
  address: string;
  /** As the caller wrote it, e.g. `Ann <ann@example.com>`. */
  display: string;
}

/**
 * A recipient the send dropped because its address is on the organization's suppression list
 * (docs/deliverability.md): it got nothing, and is not among the email's recipients.
 */
export interface SuppressedRecipientRecord {
  kind: "to" | "cc" | "bcc";
  /** Lowercased address. */
  address: string;
  reason: SuppressionReason;
}

/** A label stored with an email (`tags` of the send input): filterable by name and value. */
export interface EmailTagRecord {
  name: string;
  value: string;
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
  /** Labels with distinct names, in the caller's order. Default: none. */
  tags?: EmailTagRecord[];
  /** Recipients dropped as suppressed, in the caller's order. Default: none. */
  suppressedRecipients?: SuppressedRecipientRecord[];
  createdAt: Date;
}

/**
 * Email status: `sending` until the provider answers, then `sent` or `failed`. `unknown`: the
 * process stopped while the provider had the message (a crash between handing it over and
 * recording the answer), so it may have been delivered; it is counted and tracked like `sent`.
 * `suppressed`: every `to` was on the suppression list, so nothing was sent; counted and tracked
 * nowhere, like `failed`. `bounced`: it was sent, and every `to` recipient hard-bounced since
 * (docs/deliverability.md); counted and tracked like `sent`, since it was sent.
 */
export type EmailStatus = "sending" | "sent" | "failed" | "unknown" | "suppressed" | "bounced";

/** A stored email (what in-process callers and tests read back). */
export interface EmailRecord
  extends Omit<NewEmailRecord, "links" | "recipients" | "tags" | "suppressedRecipients"> {
  /** Every recipient, `to` then `cc` then `bcc`, each in the caller's order. */
  recipients: EmailRecipientRecord[];
  tags: EmailTagRecord[];
  /** Recipients the send dropped as suppressed; empty when none was. */
  suppressedRecipients: SuppressedRecipientRecord[];
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
  /**
   * Logs the EMAIL_SENT event and queues it for subscribed active webhooks, in the same
   * transaction. Leave it out (false) for emails another system sent (registered ones).
   */
  logSentEvent?: boolean;
}

/** Where a page of {@link EmailStore.page} starts: after the email with this time and id. */
export interface EmailPosition {
  createdAt: Date;
  id: string;
}

/** Which emails {@link EmailStore.page} reads: every filter given must hold. */
export interface EmailPageQuery {
  /** At most this many emails. */
  limit: number;
  /** Only emails older than this position (newest first: `(createdAt, id)` descending). */
  after?: EmailPosition;
  /** Only emails of this campaign (its id). */
  campaignId?: string;
  /** Only emails with this status. */
  status?: EmailStatus;
  /** Only emails with this `to` recipient (a lowercased address). */
  to?: string;
  /** Only emails created at or after this time. */
  since?: Date;
  /** Only emails created before this time. */
  until?: Date;
}

/** Emails. */
export interface EmailStore {
  /**
   * Inserts the email with its recipients and links in one transaction. With `sent`, the email
   * is stored as sent at once (registered emails) and counted like {@link markSent} does.
   */
  create(email: NewEmailRecord, sent?: SentMark): Promise<void>;
  /**
   * Inserts the email as `suppressed` (nothing was sent: every `to` is suppressed) with `reason`
   * as its failure reason, in one transaction; counted nowhere, no event. Its `recipients` are the
   * ones requested, its `suppressedRecipients` those on the list.
   */
  createSuppressed(email: NewEmailRecord, reason: string): Promise<void>;
  /**
   * `sending` -> `sent`: stores the provider id, counts the email in the contact and daily
   * rollups, and logs its event when asked; all or nothing. False when the email is not `sending`.
   */
  markSent(organizationId: string, emailId: string, mark: SentMark): Promise<boolean>;
  /** `sending` -> `failed` with a reason; failed emails are counted nowhere. */
  markFailed(organizationId: string, emailId: string, reason: string): Promise<void>;
  /**
   * Crash reconciliation: every email of any organization still `sending` that was created before
   * `createdBefore` becomes `unknown`, with `sentAt` its creation time, and is counted in the
   * contact and daily rollups as a sent email is (in the same transaction, all or nothing; no
   * webhook event is queued, since nobody knows it was sent). Returns how many changed.
   */
  markStaleSendingUnknown(createdBefore: Date): Promise<number>;
  /** The email of this organization, or `undefined`. */
  get(organizationId: string, emailId: string): Promise<EmailRecord | undefined>;
  /**
   * The email whose provider message id (`providerMessageId`, the Message-ID without angle
   * brackets for SMTP) is `messageId`, across organizations: how a complaint that quotes only the
   * original's Message-ID is tied to it. `undefined` when no email, or more than one, has it (an
   * ambiguous id attributes nothing).
   */
  findByProviderMessageId(
    messageId: string,
  ): Promise<{ organizationId: string; emailId: string } | undefined>;
  /** The organization's emails of every status, newest first, at most `limit`. */
  list(organizationId: string, limit: number): Promise<EmailRecord[]>;
  /**
   * A page of the organization's emails of every status, newest first by `(createdAt, id)`,
   * filtered by `query`; at most `query.limit`. Another organization's emails are never in it.
   */
  page(organizationId: string, query: EmailPageQuery): Promise<EmailRecord[]>;
}
