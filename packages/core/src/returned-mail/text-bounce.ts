import { addressLines } from "./addresses.js";
import { maxDiagnosticChars } from "./delivery-status.js";
import type { RecipientOutcome } from "./returned-mail-verdict.js";
import { findEnhancedStatus, findSmtpReply, judgeStatus } from "./status-rule.js";

/**
 * Bounces without a `message/delivery-status` part: qmail's "Hi. This is the qmail-send program",
 * some Exchange and gateway NDRs, plain notices from old Exim and Sendmail setups. The recipients
 * are the lines that start with an address (before the quoted original); each one's status is the
 * enhanced status code or SMTP reply in its paragraph, else anywhere in the notice.
 */

/** What the top of a message says about whether it is a delivery notice. */
export interface NoticeSignals {
  fromAddress: string | null;
  subject: string | null;
  /** The envelope sender (`Return-Path`), `<>` for a notice. */
  returnPath: string | null;
  text: string;
}

const daemonSender =
  /^(mailer-daemon|postmaster|mail-daemon|mail\.delivery\.system|mdaemon|bounce[sd]?|noreply-dmarc-support)@/i;
const noticeSubject =
  /undeliver|undelivered|delivery (status notification|failure|has failed|problem|notification|report)|returned mail|failure notice|mail delivery (failed|failure|system|subsystem)|non[- ]?delivery|could not be delivered|delivery failed|message not delivered|unzustellbar|non remis|no entregado|mail system error/i;
const noticeText =
  /this is the qmail-send program|this is the mail system at host|mail delivery software|delivery has failed to these recipients|could not be delivered to one or more|permanent error|delivery to the following recipient(s)? failed|the following address(es)? failed|message could not be delivered|your message wasn't delivered|i'm afraid i wasn't able to deliver/i;

/** Where the quoted original starts in a notice: everything below is the sent mail, not the report. */
const quoteMarker =
  /^[ \t]*(-{2,}[ \t]*)?(below this line is a copy of the message|this is a copy of the message|original message( headers)?|forwarded message|returned message|undelivered message|headers of the original message)\b.*$|^(Received|Return-Path|DKIM-Signature):[ \t]/im;

/** Whether a message without a delivery-status part reads as a delivery notice. */
export function looksLikeNotice(signals: NoticeSignals): boolean {
  const fromDaemon = signals.fromAddress !== null && daemonSender.test(signals.fromAddress);
  const nullSender = signals.returnPath !== null && /^<?\s*>?$/.test(signals.returnPath.trim());
  const subjectSays = signals.subject !== null && noticeSubject.test(signals.subject);
  const textSays = noticeText.test(reportText(signals.text));
  // One signal is not enough: a person can write "undeliverable" in a subject, and a program can
  // send with a null sender; two together are a notice.
  return [fromDaemon, nullSender, subjectSays, textSays].filter(Boolean).length >= 2;
}

/** The notice's own words: the text above the quoted original. */
export function reportText(text: string): string {
  const head = text.slice(0, 64 * 1024);
  const marker = quoteMarker.exec(head);
  return marker ? head.slice(0, marker.index) : head;
}

/** The recipients a plain-text notice names, each judged on its own paragraph. */
export function readTextBounce(text: string, recipientHint: string | null): RecipientOutcome[] {
  const report = reportText(text);
  const lines = report.split(/\r?\n|\r/);
  const found = addressLines(lines);
  const seen = new Set<string>();
  const outcomes: RecipientOutcome[] = [];
  found.forEach((entry, index) => {
    const key = entry.address.toLowerCase();
    if (seen.has(key) || outcomes.length >= 100) return;
    seen.add(key);
    const end = found[index + 1]?.line ?? lines.length;
    const paragraph = [entry.rest, ...lines.slice(entry.line + 1, end)].join("\n");
    outcomes.push(outcomeOf(entry.address, paragraph, report));
  });
  if (outcomes.length === 0) {
    const outcome = outcomeOf(recipientHint, report, report);
    outcome.reasons.push(
      recipientHint
        ? "The notice names no recipient: it is the one the return path names."
        : "The notice names no recipient: attribute it through the return path (VERP) address.",
    );
    outcomes.push(outcome);
  }
  return outcomes;
}

function outcomeOf(recipient: string | null, paragraph: string, whole: string): RecipientOutcome {
  const ownStatus = findEnhancedStatus(paragraph);
  const ownReply = findSmtpReply(paragraph);
  const status = ownStatus ?? (ownReply === null ? findEnhancedStatus(whole) : null);
  const smtpCode = ownReply ?? (ownStatus === null ? findSmtpReply(whole) : null);
  const text = (ownStatus || ownReply ? paragraph : whole).trim();
  const judgement = judgeStatus({ action: "failed", status, smtpCode, text });
  return {
    recipient,
    originalRecipient: null,
    action: "failed",
    bounceType: judgement.bounceType,
    status,
    smtpCode,
    diagnostic: text ? text.replace(/\s+/g, " ").slice(0, maxDiagnosticChars) : null,
    reasons: [...judgement.reasons, "Read from a plain-text notice (no delivery-status part)."],
  };
}
