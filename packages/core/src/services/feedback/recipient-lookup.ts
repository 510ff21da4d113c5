import type { Storage } from "../../ports/storage.js";
import type { FeedbackTarget } from "../delivery-feedback-service.js";

/** A sent email's recipient as a feedback report names it: organization, email, address. */
export type RecipientTarget = Omit<FeedbackTarget, "occurredAt">;

/**
 * Finds the recipient a tracking id and a recipient index name (a recipient token's contents):
 * the email through `storage.tracking.findEmails`, then its stored recipients (`to`, `cc`,
 * `bcc`, in order) for the address at `recipientIndex`. `undefined` when the email is unknown or
 * the index lies past its recipients. Two reads, no write.
 */
export async function findRecipient(
  storage: Pick<Storage, "tracking" | "emails">,
  reference: { trackingId: string; recipientIndex: number },
): Promise<RecipientTarget | undefined> {
  const [tracked] = await storage.tracking.findEmails([reference.trackingId]);
  if (!tracked) return undefined;
  const email = await storage.emails.get(tracked.organizationId, tracked.id);
  const recipient = email?.recipients[reference.recipientIndex];
  if (!email || !recipient) return undefined;
  return { organizationId: email.organizationId, emailId: email.id, recipient: recipient.address };
}

/**
 * Finds the email a tracking id names (`X-MailPulse-Tracking-Id`), with the organization it
 * belongs to; `undefined` when unknown.
 */
export async function findTrackedEmail(
  storage: Pick<Storage, "tracking">,
  trackingId: string,
): Promise<{ organizationId: string; emailId: string } | undefined> {
  const [tracked] = await storage.tracking.findEmails([trackingId]);
  return tracked && { organizationId: tracked.organizationId, emailId: tracked.id };
}
