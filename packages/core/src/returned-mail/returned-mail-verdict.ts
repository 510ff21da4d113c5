/**
 * The vocabulary of mail that comes back to a return-path address: what kind of message it is
 * (a bounce, a complaint, an auto-reply, a read receipt, a person's reply, or something that
 * cannot be read) and, for bounces and complaints, which sent email it is about.
 * docs/deliverability.md ("How returned mail is classified") gives the rules.
 */

/** The `Action` of one recipient of a delivery status notification (RFC 3464 section 2.3.3). */
export type RecipientAction = "failed" | "delayed" | "delivered" | "relayed" | "expanded";

/**
 * How a recipient's outcome counts: `hard` (the address should not be mailed again), `soft` (a
 * failure that may pass: mailbox full, retries timed out, a temporary rejection) or `none` (a
 * delay or a success, which is recorded but is not a bounce).
 */
export type BounceType = "hard" | "soft" | "none";

/** Where the attribution of a report to a sent email was read. */
export type AttributionSource = "message/rfc822" | "text/rfc822-headers" | "quoted-text";

/** What ties a bounce or a complaint to the email MailPulse sent. */
export interface ReturnedMailAttribution {
  /** The embedded original's `Message-ID`, angle brackets included; null when none was found. */
  messageId: string | null;
  /** The embedded original's `X-MailPulse-Tracking-Id`; null when none was found. */
  trackingId: string | null;
  /** Where the two were read; null when neither was found. */
  source: AttributionSource | null;
}

/** The outcome for one recipient named by a bounce. */
export interface RecipientOutcome {
  /** The address the report is about; null when a plain-text notice names none (attribute it through the VERP address). */
  recipient: string | null;
  /** RFC 3464 `Original-Recipient`, when the report gives one. */
  originalRecipient: string | null;
  action: RecipientAction;
  bounceType: BounceType;
  /** The enhanced status code (RFC 3463) such as `5.1.1`; null when the report gives none. */
  status: string | null;
  /** The SMTP reply code such as 550, when the report quotes one. */
  smtpCode: number | null;
  /** The remote server's words (`Diagnostic-Code` or the notice's text), at most 1,000 characters. */
  diagnostic: string | null;
  /** Why this bounce type, each a short sentence a person understands. Never empty. */
  reasons: string[];
}

/** A delivery report: one outcome per recipient it names (several for one multi-recipient DSN). */
export interface BounceVerdict {
  kind: "bounce";
  /** `dsn` for an RFC 3464 `message/delivery-status` part, `text` for a notice without one (qmail, some NDRs). */
  format: "dsn" | "text";
  /** RFC 3464 `Reporting-MTA` (its name, without the type), when given. */
  reportingMta: string | null;
  recipients: RecipientOutcome[];
  attribution: ReturnedMailAttribution;
  reasons: string[];
}

/** An abuse report in the Abuse Reporting Format (RFC 5965), as feedback loops send them. */
export interface ComplaintVerdict {
  kind: "complaint";
  /** `Feedback-Type` as given, lowercased: `abuse`, `fraud`, `virus`, `not-spam`, `other`, ... */
  feedbackType: string;
  /** The address that complained: `Original-Rcpt-To`, else the embedded message's `To`; null when redacted. */
  recipient: string | null;
  /** The report's `User-Agent` (the reporter's software). */
  userAgent: string | null;
  attribution: ReturnedMailAttribution;
  reasons: string[];
}

/** A message a program sent in answer: RFC 3834 auto-replies, vacation notices, challenge-response. */
export interface AutoReplyVerdict {
  kind: "auto-reply";
  autoReplyType: "vacation" | "challenge-response" | "auto-generated";
  /** The sender's address, when the message has one. */
  from: string | null;
  reasons: string[];
}

/** A message disposition notification (RFC 8098): the recipient's client saying the mail was displayed, deleted, ... */
export interface ReadReceiptVerdict {
  kind: "read-receipt";
  /** The disposition type: `displayed`, `deleted`, `dispatched`, `processed`; null when not given. */
  disposition: string | null;
  /** `Final-Recipient`, the address that read it. */
  recipient: string | null;
  /** `Original-Message-ID`, the Message-ID of the mail it is about. */
  originalMessageId: string | null;
  reasons: string[];
}

/** A reply a person wrote. */
export interface HumanReplyVerdict {
  kind: "human-reply";
  from: string | null;
  subject: string | null;
  /** `In-Reply-To`, which names the Message-ID of the sent mail when the client kept it. */
  inReplyTo: string | null;
  reasons: string[];
}

/** A message that cannot be read as mail (no header, broken structure, over the limits). */
export interface MalformedVerdict {
  kind: "malformed";
  /** Why, as a sentence for the operator's log. */
  reason: string;
  reasons: string[];
}

/** What {@link classifyReturnedMail} says about one message. */
export type ReturnedMailVerdict =
  | BounceVerdict
  | ComplaintVerdict
  | AutoReplyVerdict
  | ReadReceiptVerdict
  | HumanReplyVerdict
  | MalformedVerdict;

/** The kinds of {@link ReturnedMailVerdict}. */
export type ReturnedMailKind = ReturnedMailVerdict["kind"];

/** Options of {@link classifyReturnedMail}. */
export interface ClassifyReturnedMailOptions {
  /**
   * The recipient the return path names (a VERP envelope recipient decoded by the receiver). Used
   * when a plain-text notice names no recipient, and when a DSN recipient lacks `Final-Recipient`.
   */
  envelopeRecipientHint?: string;
  /** The most bytes of a message read (default 4 MiB); the rest is ignored. */
  maxBytes?: number;
}

/** The empty attribution: nothing found. */
export const noAttribution: ReturnedMailAttribution = { messageId: null, trackingId: null, source: null };
