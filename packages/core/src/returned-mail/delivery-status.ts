import { typedAddress } from "./addresses.js";
import { fieldValue, type HeaderField, parseFieldGroups } from "./header-fields.js";
import type { RecipientAction, RecipientOutcome } from "./returned-mail-verdict.js";
import { findEnhancedStatus, findSmtpReply, judgeStatus } from "./status-rule.js";

/**
 * A `message/delivery-status` part (RFC 3464): a per-message group (`Reporting-MTA`, ...) then one
 * group per recipient (`Final-Recipient`, `Action`, `Status`, `Diagnostic-Code`), each recipient
 * judged on its own.
 */

/** The characters of a diagnostic kept on a verdict. */
export const maxDiagnosticChars = 1000;

/** What a delivery-status part says. */
export interface DeliveryStatusReport {
  reportingMta: string | null;
  recipients: RecipientOutcome[];
}

const actions: readonly RecipientAction[] = ["failed", "delayed", "delivered", "relayed", "expanded"];
const recipientFields = new Set(["final-recipient", "original-recipient", "action", "status"]);

/**
 * Reads a delivery-status part. `humanText` is the report's human-readable part: when the report
 * names one recipient, its words count toward the rule too (Exim writes "retry timeout exceeded"
 * there). `recipientHint` stands in for a missing `Final-Recipient`.
 */
export function readDeliveryStatus(
  text: string,
  humanText: string,
  recipientHint: string | null,
): DeliveryStatusReport {
  const groups = parseFieldGroups(text);
  const perMessage = groups[0] && !isRecipientGroup(groups[0]) ? groups[0] : [];
  const recipientGroups = groups.filter(isRecipientGroup);
  const context = recipientGroups.length === 1 ? humanText.slice(0, 8192) : "";
  return {
    reportingMta: mtaName(fieldValue(perMessage, "reporting-mta")),
    recipients: recipientGroups.map((group) => outcomeOf(group, context, recipientHint)),
  };
}

function isRecipientGroup(group: readonly HeaderField[]): boolean {
  return group.some((field) => recipientFields.has(field.name));
}

function outcomeOf(
  group: readonly HeaderField[],
  context: string,
  recipientHint: string | null,
): RecipientOutcome {
  const rawDiagnostic = fieldValue(group, "diagnostic-code");
  const diagnostic = rawDiagnostic ? diagnosticText(rawDiagnostic) : null;
  const status =
    findEnhancedStatus(` ${fieldValue(group, "status") ?? ""}`) ?? findEnhancedStatus(diagnostic ?? "");
  const smtpCode = diagnostic ? findSmtpReply(diagnostic) : null;
  const reasons: string[] = [];
  const action = actionOf(fieldValue(group, "action"), status, reasons);
  const finalRecipient = typedAddress(fieldValue(group, "final-recipient"));
  const originalRecipient = typedAddress(fieldValue(group, "original-recipient"));
  const recipient = finalRecipient ?? originalRecipient ?? recipientHint;
  if (!finalRecipient && recipient)
    reasons.push("No usable Final-Recipient: the recipient is taken from elsewhere.");
  // Every field of the group counts (Exim puts "retry timeout exceeded" in X-Exim-Diagnostic).
  const groupText = group.map((field) => field.value).join("\n");
  const judgement = judgeStatus({ action, status, smtpCode, text: `${groupText}\n${context}` });
  return {
    recipient,
    originalRecipient,
    action,
    bounceType: judgement.bounceType,
    status,
    smtpCode,
    diagnostic: diagnostic ? diagnostic.slice(0, maxDiagnosticChars) : null,
    reasons: [...judgement.reasons, ...reasons],
  };
}

/** `smtp; 550 5.1.1 ...` without its type. */
function diagnosticText(value: string): string {
  const match = /^[A-Za-z0-9-]{1,20};\s*/.exec(value);
  return (match ? value.slice(match[0].length) : value).trim();
}

/** `dns; mx.example.com` as `mx.example.com`. */
function mtaName(value: string | null): string | null {
  if (!value) return null;
  return diagnosticText(value).slice(0, 255) || null;
}

/** The Action field, or one inferred from the status when a report leaves it out. */
function actionOf(value: string | null, status: string | null, reasons: string[]): RecipientAction {
  const word =
    value
      ?.trim()
      .split(/[\s(;]/)[0]
      ?.toLowerCase() ?? "";
  const known = actions.find((action) => action === word);
  if (known) return known;
  const inferred: RecipientAction = status?.startsWith("2") ? "delivered" : "failed";
  reasons.push(
    value
      ? `Unknown Action "${value.slice(0, 40)}": read as "${inferred}" from the status.`
      : `No Action field: read as "${inferred}" from the status.`,
  );
  return inferred;
}
