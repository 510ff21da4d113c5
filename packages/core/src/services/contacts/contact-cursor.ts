import type { ContactCursor } from "../../ports/storage.js";
import { hasControlCharacter } from "../../util/control-characters.js";

/** The largest epoch millisecond a `Date` holds (ECMAScript: 100,000,000 days). */
const maxDateMs = 8.64e15;
/** Contacts are addresses: at most 320 characters. */
const maxAddressLength = 320;
/** Encodes a list position as an opaque base64url token (a page's `nextCursor`). */
export function encodeContactCursor(cursor: ContactCursor): string {
  return Buffer.from(JSON.stringify([cursor.lastActivity.getTime(), cursor.address])).toString("base64url");
}

/**
 * Decodes {@link encodeContactCursor}'s token; `undefined` when it is not one, including a
 * well-formed token whose time or address no contact can have.
 */
export function decodeContactCursor(token: string): ContactCursor | undefined {
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
    // A time a `Date` can hold (a safe integer such as 2^53 - 1 is not one: it reached PostgreSQL
    // as `bigint "NaN"`), and an address a contact can have.
    Math.abs(value[0]) <= maxDateMs &&
    typeof value[1] === "string" &&
    value[1].length <= maxAddressLength &&
    !hasControlCharacter(value[1])
  ) {
    return { lastActivity: new Date(value[0]), address: value[1] };
  }
  return undefined;
}
