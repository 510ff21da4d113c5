/**
 * The event log: every email sent (by MailPulse), every open and click, and every bounce,
 * complaint and unsubscribe (docs/deliverability.md), in the order they were committed. The events API pages over it and webhook deliveries build their bodies from it.
 * Events are kept as long as the emails they belong to.
 */
import type { HitVerdict } from "../measurement/hit-verdict.js";

/** An event log row's type. */
export type StoredEventType = "sent" | "open" | "click" | "bounce" | "complaint" | "unsubscribe";

/** What a bounce event reports (`EMAIL_BOUNCED`). */
export interface BounceEventDetails {
  /** The recipient that bounced (normalised). */
  recipient: string;
  bounceType: "hard" | "soft";
  /** Enhanced status code (`5.1.1`), or null. */
  status: string | null;
  diagnostic: string | null;
}

/** What a complaint event reports (`EMAIL_COMPLAINED`). */
export interface ComplaintEventDetails {
  recipient: string;
  /** ARF `Feedback-Type` (or the provider's), lowercased. */
  feedbackType: string;
}

/** What an unsubscribe event reports (`CONTACT_UNSUBSCRIBED`). */
export interface UnsubscribeEventDetails {
  recipient: string;
  source: "one-click" | "page" | "mailto" | "api";
}

/** One event with what its body reports. */
export interface StoredEvent {
  /** Its place in the log: ids grow in commit order (see `EventStore.list`). */
  id: number;
  organizationId: string;
  type: StoredEventType;
  occurredAt: Date;
  email: {
    id: string;
    trackingId: string;
    /** The From the message went out with (display name included). */
    from: string;
    /** The `to` recipients as the caller wrote them, in order. */
    to: string[];
    subject: string;
    /** As stored: JSON text, or null. */
    metadata: string | null;
    providerMessageId: string | null;
    /** The send's tags, in their order. */
    tags: Array<{ name: string; value: string }>;
  };
  campaign: { id: string; name: string } | null;
  /** Clicks only. */
  link: { id: string; url: string } | null;
  /** Opens and clicks: the client's address as retained, and its user agent. */
  ip: string | null;
  userAgent: string | null;
  /** Opens and clicks: the current verdict (null on the other types). */
  verdict: HitVerdict | null;
  /** Bounces, complaints and unsubscribes: what they report (null on the other types). */
  details: BounceEventDetails | ComplaintEventDetails | UnsubscribeEventDetails | null;
}

/** A page request over the log. */
export interface EventQuery {
  /** Only events with a higher id. */
  after?: number;
  limit: number;
  types?: ReadonlyArray<StoredEventType>;
  /** Only this email's events (resolved from its tracking id by the caller). */
  emailId?: string;
  /** Only events of emails carrying this tag (name and value). */
  tag?: { name: string; value: string };
}

/** The event log. */
export interface EventStore {
  /**
   * Events of the organization with ids above `after`, oldest first. Implementations must hand
   * out ids in commit order (an id never becomes visible after a higher one), so paging on from
   * the last id seen loses nothing.
   */
  list(organizationId: string, query: EventQuery): Promise<StoredEvent[]>;
  /** Events by id (of the organization), in the order asked; missing ids are left out. */
  findByIds(organizationId: string, ids: readonly number[]): Promise<StoredEvent[]>;
}
