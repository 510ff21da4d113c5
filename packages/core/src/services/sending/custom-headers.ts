import { z } from "zod";
import { maxCustomHeaders } from "./send-limits.js";

/**
 * Headers MailPulse writes itself (addressing, content structure, signatures, its own tracking
 * header): a caller's value would contradict or forge them. Compared in lower case; every
 * `Content-*` and `X-MailPulse-*` header is refused too.
 */
export const reservedHeaderNames: ReadonlySet<string> = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "reply-to",
  "sender",
  "subject",
  "date",
  "message-id",
  "mime-version",
  "dkim-signature",
  "return-path",
  "received",
  "x-mailer",
]);

/** Whether MailPulse owns the header `name` (case-insensitive). */
export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return reservedHeaderNames.has(lower) || lower.startsWith("content-") || lower.startsWith("x-mailpulse-");
}

// RFC 5322 field name: printable ASCII except the colon.
const fieldName = /^[!-9;-~]{1,100}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: CR, LF and the rest would inject headers.
const controlCharacters = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/**
 * `headers`: extra headers such as `List-Unsubscribe` or `In-Reply-To`, as `{ name: value }`. At
 * most {@link maxCustomHeaders}; names are field names of at most 100 characters, not reserved;
 * values are one line of at most 998 characters.
 */
export const customHeadersSchema = z
  .custom<Record<string, string>>()
  .transform((headers: unknown, context) => {
    if (headers === null || typeof headers !== "object" || Array.isArray(headers)) {
      context.addIssue({ code: "custom", message: "must be an object of header names to values" });
      return z.NEVER;
    }
    const entries = Object.entries(headers);
    if (entries.length > maxCustomHeaders) {
      context.addIssue({ code: "custom", message: `at most ${maxCustomHeaders} headers` });
      return z.NEVER;
    }
    const seen = new Set<string>();
    const accepted: Array<[string, string]> = [];
    for (const [name, value] of entries) {
      const problem = headerProblem(name, value, seen);
      if (problem) context.addIssue({ code: "custom", message: problem, path: [name] });
      else accepted.push([name, value as string]);
      seen.add(name.toLowerCase());
    }
    // fromEntries defines own properties: a header named "__proto__" stays a header.
    return Object.fromEntries(accepted);
  })
  // A z.custom: zod cannot derive its JSON Schema, so it is written here.
  .meta({
    type: "object",
    maxProperties: maxCustomHeaders,
    additionalProperties: { type: "string", maxLength: 998 },
    description:
      "Extra headers (`List-Unsubscribe`, `In-Reply-To`, `X-Entity-Ref-ID`...). A `List-Unsubscribe` of your own is kept and MailPulse adds none (see `unsubscribe`). Refused (400): From, To, Cc, Bcc, Reply-To, Sender, Subject, Date, Message-ID, MIME-Version, DKIM-Signature, Return-Path, Received, X-Mailer, every `Content-*` and `X-MailPulse-*`.",
  });

function headerProblem(name: string, value: unknown, seen: Set<string>): string | undefined {
  if (!fieldName.test(name)) return "is not a header name (printable ASCII without ':', at most 100)";
  if (isReservedHeader(name)) return "is set by MailPulse and cannot be overridden";
  if (seen.has(name.toLowerCase())) return "is given twice (header names are case-insensitive)";
  if (typeof value !== "string") return "must be a string";
  if (controlCharacters.test(value)) return "must be one line without control characters";
  if (value.length > 998) return "must be at most 998 characters";
  return undefined;
}
