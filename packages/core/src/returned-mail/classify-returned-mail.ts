import PostalMime, { type Email } from "postal-mime";
import { bareAddress } from "./addresses.js";
import { attributionOf, type ReportPart } from "./attribution.js";
import { autoReplyOf } from "./auto-reply.js";
import { readDeliveryStatus } from "./delivery-status.js";
import { readDispositionNotification } from "./disposition-notification.js";
import { readFeedbackReport } from "./feedback-report.js";
import type {
  ClassifyReturnedMailOptions,
  MalformedVerdict,
  ReturnedMailVerdict,
} from "./returned-mail-verdict.js";
import { looksLikeNotice, readTextBounce } from "./text-bounce.js";

/** The bounds on the work one message may cost (a hostile message meets them, never a crash). */
export const returnedMailLimits = {
  /** Bytes of a message read by default; reports put their machine-readable parts first. */
  maxBytes: 4 * 1024 * 1024,
  /** Multipart nesting; a report is two or three levels deep. */
  maxNestingDepth: 16,
  /** Header bytes across all parts. */
  maxHeadersBytes: 512 * 1024,
  /** Parts read after parsing. */
  maxParts: 32,
  /** Bytes of one part (and of the text) read. */
  maxPartBytes: 256 * 1024,
} as const;

const deliveryStatusTypes = new Set(["message/delivery-status", "message/global-delivery-status"]);
const dispositionTypes = new Set([
  "message/disposition-notification",
  "message/global-disposition-notification",
]);
const feedbackTypes = new Set(["message/feedback-report"]);

/**
 * Classifies a message that arrived at a return-path address: a bounce (RFC 3464 DSN, or a
 * plain-text notice such as qmail's), a complaint (RFC 5965 ARF), an auto-reply (RFC 3834,
 * vacation, challenge-response), a read receipt (RFC 8098 MDN), a person's reply, or malformed.
 * Bounces and complaints carry what ties them to the sent email (the embedded original's
 * Message-ID and `X-MailPulse-Tracking-Id`).
 *
 * Pure: bytes in, a verdict with reasons out; no I/O. It never rejects: a message it cannot read
 * (over the limits, no header, broken structure) is `malformed` with the reason.
 * docs/deliverability.md lists the rules.
 *
 * ```ts
 * const verdict = await classifyReturnedMail(rawMessage, { envelopeRecipientHint: "ann@example.com" });
 * if (verdict.kind === "bounce") for (const r of verdict.recipients) console.log(r.recipient, r.bounceType, r.status);
 * ```
 *
 * Asynchronous only because the MIME parser (`postal-mime`) is.
 */
export async function classifyReturnedMail(
  raw: Uint8Array | string,
  options: ClassifyReturnedMailOptions = {},
): Promise<ReturnedMailVerdict> {
  try {
    return await classify(raw, options);
  } catch (error) {
    const detail = error instanceof Error ? error.message.slice(0, 200) : "unknown error";
    return malformed(`The message could not be parsed as MIME: ${detail}.`);
  }
}

async function classify(
  raw: Uint8Array | string,
  options: ClassifyReturnedMailOptions,
): Promise<ReturnedMailVerdict> {
  const wanted = options.maxBytes ?? returnedMailLimits.maxBytes;
  const maxBytes = Number.isFinite(wanted) ? Math.max(1024, Math.floor(wanted)) : returnedMailLimits.maxBytes;
  const { bytes, truncated } = head(raw, maxBytes);
  if (!startsWithHeader(bytes)) return malformed("The message does not start with a header field.");
  const email = await PostalMime.parse(bytes, {
    forceRfc822Attachments: true,
    attachmentEncoding: "arraybuffer",
    maxNestingDepth: returnedMailLimits.maxNestingDepth,
    maxHeadersSize: returnedMailLimits.maxHeadersBytes,
    maxRfc822NestingDepth: 0,
  });
  if (email.headers.length === 0) return malformed("The message has no header fields.");
  const verdict = classifyParsed(email, options.envelopeRecipientHint ?? null);
  if (!truncated) return verdict;
  const note = `Only the first ${maxBytes} bytes of the message were read.`;
  if (verdict.kind === "bounce" || verdict.kind === "complaint")
    return { ...verdict, reasons: [...verdict.reasons, note] };
  return malformed(`The message is larger than the ${maxBytes} bytes read, and no report was found in them.`);
}

function classifyParsed(email: Email, recipientHint: string | null): ReturnedMailVerdict {
  const parts = reportParts(email);
  const text = (email.text ?? "").slice(0, returnedMailLimits.maxPartBytes);
  const header = headerLookup(email);
  const reportType = /report-type\s*=\s*"?([A-Za-z0-9-]+)/i
    .exec(header("content-type") ?? "")?.[1]
    ?.toLowerCase();
  const from = fromAddress(email);

  const feedback = parts.find((part) => feedbackTypes.has(part.mimeType));
  if (feedback) {
    const report = readFeedbackReport(feedback.text, parts);
    return {
      kind: "complaint",
      feedbackType: report.feedbackType,
      recipient: report.recipient,
      userAgent: report.userAgent,
      attribution: attributionOf(parts, text),
      reasons: ["A message/feedback-report part (RFC 5965 ARF).", ...report.reasons],
    };
  }

  const deliveryStatus = parts.find((part) => deliveryStatusTypes.has(part.mimeType));
  const reasons: string[] = [];
  if (deliveryStatus) {
    const report = readDeliveryStatus(deliveryStatus.text, text, recipientHint);
    if (report.recipients.length > 0) {
      return {
        kind: "bounce",
        format: "dsn",
        reportingMta: report.reportingMta,
        recipients: report.recipients,
        attribution: attributionOf(parts, text),
        reasons: [
          `A message/delivery-status part (RFC 3464) naming ${report.recipients.length} recipient(s).`,
        ],
      };
    }
    reasons.push("The delivery-status part names no recipient; the notice's text is read instead.");
  }

  const disposition = parts.find((part) => dispositionTypes.has(part.mimeType));
  if (disposition) {
    const notification = readDispositionNotification(disposition.text);
    return {
      kind: "read-receipt",
      ...notification,
      reasons: ["A message/disposition-notification part (RFC 8098 MDN)."],
    };
  }

  const subject = email.subject ?? null;
  if (
    deliveryStatus ||
    reportType === "delivery-status" ||
    looksLikeNotice({ fromAddress: from, subject, returnPath: header("return-path"), text })
  ) {
    const recipients = readTextBounce(text, recipientHint);
    // A notice that names neither a recipient nor a status says nothing anyone could act on.
    if (recipients.every((entry) => !entry.recipient && !entry.status && !entry.smtpCode))
      return malformed("A delivery notice that names no recipient and no status.");
    return {
      kind: "bounce",
      format: "text",
      reportingMta: null,
      recipients,
      attribution: attributionOf(parts, text),
      reasons: [
        ...reasons,
        "A delivery notice without a delivery-status part (sender, subject and wording).",
      ],
    };
  }

  const autoReply = autoReplyOf({ header, subject, text }, from);
  if (autoReply) return autoReply;

  if (!from) return malformed("The message has no From address, so it is neither a report nor a reply.");
  return {
    kind: "human-reply",
    from,
    subject: subject?.slice(0, 300) ?? null,
    inReplyTo: email.inReplyTo?.trim().slice(0, 500) ?? null,
    reasons: ["No report part and no sign of an automatic sender: a person wrote it."],
  };
}

/** The message's first `maxBytes` bytes, and whether there were more. */
function head(raw: Uint8Array | string, maxBytes: number): { bytes: Uint8Array; truncated: boolean } {
  if (typeof raw === "string") {
    // Encoding a 30 MB string to read 4 MiB of it would cost the time the limit is there to save.
    const bytes = new TextEncoder().encode(raw.slice(0, maxBytes));
    return {
      bytes: bytes.subarray(0, maxBytes),
      truncated: raw.length > maxBytes || bytes.length > maxBytes,
    };
  }
  return { bytes: raw.subarray(0, maxBytes), truncated: raw.length > maxBytes };
}

/** Whether the first line is a header field (an mbox `From ` line before it is allowed). */
function startsWithHeader(bytes: Uint8Array): boolean {
  const start = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  const lines = start.split(/\r?\n/);
  const first = lines[0]?.startsWith("From ") ? lines[1] : lines[0];
  return /^[!-9;-~]{1,76}:/.test(first ?? "");
}

/** The parts a classifier reads: MIME types and decoded text, bounded in number and size. */
function reportParts(email: Email): ReportPart[] {
  const decoder = new TextDecoder("utf-8");
  return email.attachments.slice(0, returnedMailLimits.maxParts).map((attachment) => {
    const content = attachment.content;
    const text =
      typeof content === "string"
        ? content.slice(0, returnedMailLimits.maxPartBytes)
        : decoder.decode(
            (content instanceof Uint8Array ? content : new Uint8Array(content)).subarray(
              0,
              returnedMailLimits.maxPartBytes,
            ),
          );
    return { mimeType: attachment.mimeType.toLowerCase(), text };
  });
}

function headerLookup(email: Email): (name: string) => string | null {
  const byName = new Map<string, string>();
  for (const field of email.headers.slice(0, 500))
    if (!byName.has(field.key)) byName.set(field.key, field.value);
  return (name) => byName.get(name.toLowerCase()) ?? null;
}

function fromAddress(email: Email): string | null {
  const from = email.from;
  if (!from) return null;
  return bareAddress(from.address ?? from.group?.[0]?.address ?? null);
}

function malformed(reason: string): MalformedVerdict {
  return { kind: "malformed", reason, reasons: [reason] };
}
