import type { EmailRecord, EmailStatus, EmailTagRecord } from "../../ports/storage.js";

/** `GET /api/emails/:id`: an email as MailPulse recorded it, with its delivery status and engagement. */
export interface EmailDetail {
  /** MailPulse's id of the email (`emailId` of the send result). */
  id: string;
  emailTrackingId: string;
  /**
   * `sending` (the provider has it now), `sent`, `failed` (see `failureReason`), or `unknown`:
   * the process stopped while sending, so it may or may not have been delivered.
   */
  status: EmailStatus;
  /** The provider's reason for a `failed` email; null otherwise. */
  failureReason: string | null;
  /** `send` (MailPulse sent it) or `register` (POST /api/emails: the caller sent it). */
  origin: "send" | "register";
  /** The sender actually used (after the sender rule). */
  from: string;
  replyTo: string | null;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  campaignId: string | null;
  metadata: Record<string, unknown> | null;
  tags: EmailTagRecord[];
  /** The provider's id of the message (the send result's `id`); null until sent. */
  providerMessageId: string | null;
  /** Open events counted for it. */
  opens: number;
  /** Click events counted for it. */
  clicks: number;
  createdAt: string;
  /** When the provider accepted it (for `unknown`: when it was handed over); null otherwise. */
  sentAt: string | null;
}

/** The API's view of a stored email. */
export function toEmailDetail(email: EmailRecord): EmailDetail {
  const recipientsOf = (kind: "to" | "cc" | "bcc") =>
    email.recipients.filter((recipient) => recipient.kind === kind).map((recipient) => recipient.display);
  return {
    id: email.id,
    emailTrackingId: email.trackingId,
    status: email.status,
    failureReason: email.status === "failed" ? email.failureReason : null,
    origin: email.origin,
    from: email.sender,
    replyTo: email.replyTo,
    to: recipientsOf("to"),
    cc: recipientsOf("cc"),
    bcc: recipientsOf("bcc"),
    subject: email.subject,
    campaignId: email.campaignId,
    metadata: email.metadata === null ? null : (JSON.parse(email.metadata) as Record<string, unknown>),
    tags: email.tags,
    providerMessageId: email.providerMessageId,
    opens: email.openCount,
    clicks: email.clickCount,
    createdAt: email.createdAt.toISOString(),
    sentAt: email.sentAt ? email.sentAt.toISOString() : null,
  };
}
