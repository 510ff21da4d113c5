/**
 * The inbound log: one row per message the inbound SMTP receiver accepted (a bounce, a complaint,
 * an unsubscribe mail, an auto-reply, a person's reply, something malformed), kept for the
 * operator and bounded by a purge. Only the envelope and a few header fields: never a body.
 */

/** What the receiver made of a message (the classifier's kind, or `unsubscribe` for mail to a mailto unsubscribe address). */
export type InboundMessageKind =
  | "bounce"
  | "complaint"
  | "unsubscribe"
  | "auto-reply"
  | "read-receipt"
  | "human-reply"
  | "malformed";

/** A message to log. */
export interface NewInboundMessage {
  /** The organization the message was attributed to; null when none (a foreign report, a reply to the platform domain). */
  organizationId: string | null;
  /** The sent email it is about, when attributed. */
  emailId: string | null;
  receivedAt: Date;
  /** The envelope sender (MAIL FROM); empty for the null sender `<>` of bounces. */
  envelopeFrom: string;
  /** The envelope recipients (RCPT TO) that were accepted. */
  envelopeTo: string[];
  kind: InboundMessageKind;
  /** What the receiver concluded and did, as sentences for the operator (bounded by the caller). */
  summary: string;
  /** The message's Subject, bounded; null when it has none. */
  subject: string | null;
  /** The message's own Message-ID, bounded; null when it has none. */
  messageId: string | null;
}

/** A logged message as stored. */
export interface InboundMessageRecord extends NewInboundMessage {
  /** Grows with each insert: the list pages by it. */
  id: number;
}

/** What {@link InboundMessageStore.list} pages through. */
export interface InboundMessageListQuery {
  /** At most this many rows. */
  limit: number;
  /** Only rows with a smaller id (the last id of the previous page). */
  before?: number;
  kind?: InboundMessageKind;
}

/** How {@link InboundMessageStore.purge} bounds the log. */
export interface InboundMessagePurge {
  /** Rows received before this go. */
  receivedBefore: Date;
  /** At most this many rows stay (the newest), whatever their age. */
  keepNewest: number;
}

/** The inbound log of every organization. */
export interface InboundMessageStore {
  /** Appends one row; resolves with its id. */
  add(message: NewInboundMessage): Promise<number>;
  /** The organization's rows, newest first (by id), filtered and paged by `query`. */
  list(organizationId: string, query: InboundMessageListQuery): Promise<InboundMessageRecord[]>;
  /** Deletes rows of every organization older than the cutoff or beyond the newest `keepNewest`; resolves with how many. */
  purge(purge: InboundMessagePurge): Promise<number>;
}
