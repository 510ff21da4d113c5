/**
 * The delivery feedback log: what came back after a send (bounces, delays, complaints,
 * unsubscribes), one row per (email, recipient, kind). docs/deliverability.md gives the rules;
 * the feedback service applies them (suppression, the soft-bounce rule), this store keeps the
 * facts and the events they emit.
 */

/** What kind of feedback a row is. A `delay` is not a bounce: nothing final happened yet. */
export type DeliveryFeedbackKind = "bounce" | "delay" | "complaint" | "unsubscribe";

/** A bounce's severity: `hard` is permanent, `soft` transient (it counts toward the soft-bounce rule). */
export type BounceType = "hard" | "soft";

/** One report to record. Text fields arrive sanitised and bounded by the service. */
export interface NewDeliveryFeedback {
  organizationId: string;
  emailId: string;
  /** Normalised (trimmed, lowercased), one of the email's recipients. */
  recipient: string;
  kind: DeliveryFeedbackKind;
  /** Bounces only; null otherwise. */
  bounceType: BounceType | null;
  /** Enhanced status code (`5.1.1`) of a bounce or delay, or null. */
  status: string | null;
  /** The remote server's words, or null. */
  diagnostic: string | null;
  /** Complaints only: the feedback type, lowercased (`abuse`); null otherwise. */
  feedbackType: string | null;
  /** Where it was learnt (`inbound-smtp`, `send-time`, `sns`; unsubscribes `one-click`, `page`, `mailto`, `api`). */
  source: string;
  occurredAt: Date;
}

/** A recorded report. */
export interface DeliveryFeedbackRecord extends NewDeliveryFeedback {
  id: number;
  /** The email's campaign, copied at recording time for the statistics; null for standalone emails. */
  campaignId: string | null;
}

/** What {@link DeliveryFeedbackStore.record} did. */
export interface RecordedFeedback {
  /**
   * True when the report was new: a row was inserted, or a soft bounce of the same email and
   * recipient was upgraded to a hard one. False when it was already recorded (nothing written).
   */
  recorded: boolean;
  /** The event appended to the log (bounces, complaints, unsubscribes that were new); null otherwise. */
  eventId: number | null;
  /** True when this call turned the email's status to `bounced` (every `to` hard-bounced). */
  emailBounced: boolean;
}

/**
 * Delivery feedback counted for statistics: emails (each counted once, whatever its number of
 * recipients and reports) of a counted status (`sent`, `unknown`, `bounced`) with at least one
 * report of each kind. A soft bounce later upgraded to hard counts as hard only; delays are none.
 */
export interface FeedbackTotals {
  hardBounces: number;
  softBounces: number;
  complaints: number;
  unsubscribes: number;
}

/** Which emails {@link DeliveryFeedbackStore.totals} counts. */
export interface FeedbackScope {
  /** Only the campaign's emails; default every email of the organization. */
  campaignId?: string;
  /** Only emails sent within this range (both ends included). */
  sentWithin?: { start: Date; end: Date };
  /** Only reports about this recipient (normalised by the store). */
  recipient?: string;
}

/** One UTC day of feedback (by the report's time); days without any are absent. */
export interface DailyFeedbackTotals extends FeedbackTotals {
  /** UTC days since the epoch. */
  day: number;
}

/** The delivery feedback log of organizations. */
export interface DeliveryFeedbackStore {
  /**
   * Records one report, idempotently per (email, recipient, kind): a report already recorded
   * changes nothing (`recorded: false`). The one exception is a hard bounce arriving after a soft
   * bounce of the same email and recipient: the row becomes hard (status, diagnostic, source and
   * time replaced), as new. In the same transaction, when the report is new and its kind is
   * `bounce`, `complaint` or `unsubscribe`: appends the event (`bounce`, `complaint`,
   * `unsubscribe`, with its details) to the event log and queues a delivery for every active
   * webhook of the organization subscribed to it; and, for a hard bounce, sets the email's status
   * from `sent` or `unknown` to `bounced` when every one of its `to` recipients now has a hard
   * bounce. Resolves undefined (nothing written) when the email is not of the organization.
   */
  record(feedback: NewDeliveryFeedback): Promise<RecordedFeedback | undefined>;
  /**
   * How many soft bounces (one per email at most) the organization recorded for `recipient`
   * (normalised by the store) with `occurredAt` at or after `since`.
   */
  countSoftBounces(organizationId: string, recipient: string, since: Date): Promise<number>;
  /** The email's feedback rows (of the organization), oldest first; [] for an unknown email. */
  listForEmail(organizationId: string, emailId: string): Promise<DeliveryFeedbackRecord[]>;
  /** {@link FeedbackTotals} of the organization's emails in `scope`, in one query. */
  totals(organizationId: string, scope: FeedbackScope): Promise<FeedbackTotals>;
  /**
   * The campaign's feedback per UTC day of the report, days `firstDay..lastDay` (inclusive),
   * oldest first; an email counts once per day and kind.
   */
  dailyTotals(
    organizationId: string,
    campaignId: string,
    firstDay: number,
    lastDay: number,
  ): Promise<DailyFeedbackTotals[]>;
}
