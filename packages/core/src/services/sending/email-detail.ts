import type { EmailRecord } from "../../ports/storage.js";
import type { Email } from "./email-answers.js";

/** `GET /api/emails/:id`: an email as MailPulse recorded it, with its delivery status and engagement. */
export type EmailDetail = Email;

/** The API's view of a stored email. */
export function toEmailDetail(email: EmailRecord): EmailDetail {
  const recipientsOf = (kind: "to" | "cc" | "bcc") =>
    email.recipients.filter((recipient) => recipient.kind === kind).map((recipient) => recipient.display);
  return {
    id: email.id,
    emailTrackingId: email.trackingId,
    status: email.status,
    failureReason: email.status === "failed" || email.status === "suppressed" ? email.failureReason : null,
    origin: email.origin,
    from: email.sender,
    replyTo: email.replyTo,
    to: recipientsOf("to"),
    cc: recipientsOf("cc"),
    bcc: recipientsOf("bcc"),
    suppressedRecipients: email.suppressedRecipients,
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
