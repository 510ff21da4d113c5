import type { EmailPosition } from "../../ports/storage.js";
import { decodeTimeKeyCursor, encodeTimeKeyCursor } from "../validation/time-key-cursor.js";

/** Email ids are MailPulse's resource ids; this bounds what a forged token can carry. */
const maxIdLength = 200;

/** Encodes a page's last email as an opaque token (`nextCursor` of `GET /api/emails`). */
export function encodeEmailCursor(position: EmailPosition): string {
  return encodeTimeKeyCursor({ time: position.createdAt, key: position.id });
}

/** Decodes {@link encodeEmailCursor}'s token; `undefined` when it is not one no email can have. */
export function decodeEmailCursor(token: string): EmailPosition | undefined {
  const position = decodeTimeKeyCursor(token, maxIdLength);
  return position && { createdAt: position.time, id: position.key };
}
