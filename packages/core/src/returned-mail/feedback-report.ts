import { bareAddress, typedAddress } from "./addresses.js";
import { embeddedHeader, type ReportPart } from "./attribution.js";
import { fieldValue, parseFieldGroups } from "./header-fields.js";

/**
 * A `message/feedback-report` part (RFC 5965, the Abuse Reporting Format that Yahoo's, Outlook.com's
 * and other feedback loops send): what kind of feedback it is and who complained.
 */

/** What a feedback report says. */
export interface FeedbackReport {
  feedbackType: string;
  recipient: string | null;
  userAgent: string | null;
  reasons: string[];
}

/**
 * Reads a feedback report. The complaining address is `Original-Rcpt-To`; many loops redact it,
 * so the embedded original's `To` stands in (also often redacted: then it is null, and the email's
 * own recipient is found through the attribution).
 */
export function readFeedbackReport(text: string, parts: readonly ReportPart[]): FeedbackReport {
  const fields = parseFieldGroups(text).flat();
  const reasons: string[] = [];
  const given = fieldValue(fields, "feedback-type")?.trim().toLowerCase().split(/[\s;]/)[0] ?? "";
  const feedbackType = /^[a-z0-9-]{1,40}$/.test(given) ? given : "abuse";
  if (feedbackType !== given)
    reasons.push("No readable Feedback-Type: read as abuse, what a feedback loop sends.");
  let recipient = typedAddress(fieldValue(fields, "original-rcpt-to"));
  if (!recipient) {
    recipient = bareAddress(fieldValue(embeddedHeader(parts), "to"));
    reasons.push(
      recipient
        ? "No Original-Rcpt-To: the recipient is the embedded message's To."
        : "The report names no recipient (feedback loops often redact it).",
    );
  }
  const userAgent = fieldValue(fields, "user-agent")?.slice(0, 200) ?? null;
  return { feedbackType, recipient, userAgent, reasons };
}
