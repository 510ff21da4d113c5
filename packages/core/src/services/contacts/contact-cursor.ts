import type { ContactCursor } from "../../ports/storage.js";

/** Encodes a list position as an opaque base64url token (a page's `nextCursor`). */
export function encodeContactCursor(cursor: ContactCursor): string {
  return Buffer.from(JSON.stringify([cursor.lastActivity.getTime(), cursor.address])).toString("base64url");
}

/** Decodes {@link encodeContactCursor}'s token; `undefined` when it is not one. */
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
    typeof value[1] === "string"
  ) {
    return { lastActivity: new Date(value[0]), address: value[1] };
  }
  return undefined;
}
