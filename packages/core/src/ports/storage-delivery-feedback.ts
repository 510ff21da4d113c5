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
}
