import type { EmailPosition } from "../../ports/storage.js";
import { hasControlCharacter } from "../../util/control-characters.js";

/** The largest epoch millisecond a `Date` holds (ECMAScript: 100,000,000 days). */
const maxDateMs = 8.64e15;
/** Email ids are MailPulse's resource ids; this bounds what a forged token can carry. */
const maxIdLength = 200;

/** Encodes a page's last email as an opaque base64url token (`nextCursor` of `GET /api/emails`). */
export function encodeEmailCursor(position: EmailPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.getTime(), position.id])).toString("base64url");
}

/**
 * Decodes {@link encodeEmailCursor}'s token; `undefined` when it is not one, including a
 * well-formed token whose time or id no email can have.
 */
export function decodeEmailCursor(token: string): EmailPosition | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (
    Array.isArray(value) &&
    value.length === 2 &&
    Number.isSafeInteger(value[0]) &&
    // A time a `Date` can hold: a larger safe integer reaches PostgreSQL as `bigint "NaN"`.
    Math.abs(value[0]) <= maxDateMs &&
    typeof value[1] === "string" &&
    value[1].length > 0 &&
    value[1].length <= maxIdLength &&
    !hasControlCharacter(value[1])
  ) {
    return { createdAt: new Date(value[0]), id: value[1] };
  }
  return undefined;
}
