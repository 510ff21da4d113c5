import { decodeWords } from "postal-mime";
import { fieldValue, parseHeaderBlock } from "../../returned-mail/header-fields.js";
import { sanitizeText } from "../../util/sanitize-text.js";

/** Characters kept of a logged Subject or Message-ID. */
export const maxLoggedFieldLength = 300;
/** Bytes of a message read for its header: a header longer than this is logged without the fields. */
const headerBytes = 64 * 1024;

/** The Subject (decoded) and Message-ID of a message, for the inbound log; null when absent. */
export function loggedHeaderFields(raw: Uint8Array): { subject: string | null; messageId: string | null } {
  const text = new TextDecoder("utf-8").decode(raw.subarray(0, headerBytes));
  const fields = parseHeaderBlock(text);
  return {
    subject: bounded(fieldValue(fields, "subject"), true),
    messageId: bounded(fieldValue(fields, "message-id"), false),
  };
}

function bounded(value: string | null, decode: boolean): string | null {
  if (value === null) return null;
  let text = value;
  if (decode) {
    try {
      text = decodeWords(value);
    } catch {
      // An encoded word that does not decode is logged as written.
    }
  }
  const clean = sanitizeText(text).trim().slice(0, maxLoggedFieldLength);
  return clean === "" ? null : clean;
}
