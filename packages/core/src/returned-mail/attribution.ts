import { fieldValue, type HeaderField, parseHeaderBlock } from "./header-fields.js";
import { noAttribution, type ReturnedMailAttribution } from "./returned-mail-verdict.js";

/**
 * Which sent email a bounce or a complaint is about: the embedded original's `Message-ID` and the
 * `X-MailPulse-Tracking-Id` header that core's sending adds to every message. Read from a
 * `message/rfc822` part, a `text/rfc822-headers` part, or the original quoted in a plain-text
 * notice (qmail and many gateways paste it below a marker line).
 */

/** The header core's sending adds to every message (services/email-service.ts). */
export const trackingIdHeader = "x-mailpulse-tracking-id";

/** A report part as the classifier sees it: its MIME type and its text. */
export interface ReportPart {
  mimeType: string;
  text: string;
}

const embeddedMessageTypes = new Set(["message/rfc822", "message/global"]);
const embeddedHeaderTypes = new Set(["text/rfc822-headers", "message/global-headers"]);

/** Tracking ids are base64url (128 bits or more); anything else in the header is not ours. */
const trackingIdShape = /^[A-Za-z0-9_-]{8,128}$/;
const messageIdShape = /^<[^<>\s]{1,500}>$/;

/** The attribution read from the embedded original, or from the quoted text when there is none. */
export function attributionOf(parts: readonly ReportPart[], quotedText: string): ReturnedMailAttribution {
  for (const part of parts) {
    const source = embeddedMessageTypes.has(part.mimeType)
      ? "message/rfc822"
      : embeddedHeaderTypes.has(part.mimeType)
        ? "text/rfc822-headers"
        : null;
    if (!source) continue;
    const found = fromFields(parseHeaderBlock(part.text));
    if (found.messageId || found.trackingId) return { ...found, source };
  }
  const found = fromQuotedText(quotedText);
  return found.messageId || found.trackingId ? { ...found, source: "quoted-text" } : noAttribution;
}

/** The header fields of the first embedded original among `parts`, or an empty list. */
export function embeddedHeader(parts: readonly ReportPart[]): HeaderField[] {
  const part = parts.find(
    (candidate) =>
      embeddedMessageTypes.has(candidate.mimeType) || embeddedHeaderTypes.has(candidate.mimeType),
  );
  return part ? parseHeaderBlock(part.text) : [];
}

function fromFields(fields: readonly HeaderField[]): Omit<ReturnedMailAttribution, "source"> {
  return {
    messageId: messageIdOf(fieldValue(fields, "message-id")),
    trackingId: trackingIdOf(fieldValue(fields, trackingIdHeader)),
  };
}

/**
 * Header lines pasted into a notice's text. Only lines that start a line count, so a Message-ID
 * mentioned in a sentence is not taken for the original's.
 */
function fromQuotedText(text: string): Omit<ReturnedMailAttribution, "source"> {
  const messageId = /^[ \t>]*Message-ID:[ \t]*(\S+)/im.exec(text)?.[1] ?? null;
  const trackingId = /^[ \t>]*X-MailPulse-Tracking-Id:[ \t]*(\S+)/im.exec(text)?.[1] ?? null;
  return { messageId: messageIdOf(messageId), trackingId: trackingIdOf(trackingId) };
}

/** A Message-ID with its angle brackets; one given without them gets them. */
export function messageIdOf(value: string | null): string | null {
  if (!value) return null;
  const trimmed = value.trim().split(/\s+/)[0]!;
  const bracketed = trimmed.startsWith("<") ? trimmed : `<${trimmed}>`;
  return messageIdShape.test(bracketed) ? bracketed : null;
}

function trackingIdOf(value: string | null): string | null {
  const trimmed = value?.trim() ?? "";
  return trackingIdShape.test(trimmed) ? trimmed : null;
}
