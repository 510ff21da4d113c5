import type { ContactCursor } from "../../ports/storage.js";
import { decodeTimeKeyCursor, encodeTimeKeyCursor } from "../validation/time-key-cursor.js";

/** Contacts are addresses: at most 320 characters. */
const maxAddressLength = 320;

/** Encodes a list position as an opaque token (a contact page's `nextCursor`). */
export function encodeContactCursor(cursor: ContactCursor): string {
  return encodeTimeKeyCursor({ time: cursor.lastActivity, key: cursor.address });
}

/** Decodes {@link encodeContactCursor}'s token; `undefined` when it is not one no contact can have. */
export function decodeContactCursor(token: string): ContactCursor | undefined {
  const position = decodeTimeKeyCursor(token, maxAddressLength);
  return position && { lastActivity: position.time, address: position.key };
}
