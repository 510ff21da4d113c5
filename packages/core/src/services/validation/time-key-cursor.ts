import { hasControlCharacter } from "../../util/control-characters.js";

/** The largest epoch millisecond a `Date` holds (ECMAScript: 100,000,000 days). */
const maxDateMs = 8.64e15;

/** A list position ordered by a time, ties broken by a string key (an id, an address). */
export interface TimeKeyPosition {
  time: Date;
  key: string;
}

/** Encodes a list position as an opaque base64url token (a page's `nextCursor`). */
export function encodeTimeKeyCursor(position: TimeKeyPosition): string {
  return Buffer.from(JSON.stringify([position.time.getTime(), position.key])).toString("base64url");
}

/**
 * Decodes {@link encodeTimeKeyCursor}'s token; `undefined` when it is not one, including a
 * well-formed token whose time no `Date` holds or whose key is empty, longer than `maxKeyLength`
 * or holds a control character: what no stored row can have.
 */
export function decodeTimeKeyCursor(token: string, maxKeyLength: number): TimeKeyPosition | undefined {
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
    // A time a `Date` can hold: a larger safe integer (2^53 - 1) reached PostgreSQL as `bigint "NaN"`.
    Math.abs(value[0]) <= maxDateMs &&
    typeof value[1] === "string" &&
    value[1].length > 0 &&
    value[1].length <= maxKeyLength &&
    !hasControlCharacter(value[1])
  ) {
    return { time: new Date(value[0]), key: value[1] };
  }
  return undefined;
}
