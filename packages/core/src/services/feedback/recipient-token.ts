import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signed references to one recipient of one sent email, as they travel in mail: the VERP
 * return path (`bounces+<token>@send.<domain>`), the one-click unsubscribe URL
 * (`/api/u/<token>`) and its mailto twin. The token carries the email's tracking id and the
 * recipient's index, and an HMAC that only this instance's signing key produces, so a token
 * cannot be guessed, enumerated or altered into another recipient's.
 *
 * Lowercase base32 without padding: mail servers may fold the case of a local part (RFC 5321
 * says they should not; some do), and base32 survives that where base64url would not.
 */

/** What a token is for: a token made for one purpose never reads as another's. */
export type RecipientTokenPurpose = "return-path" | "unsubscribe";

/** What a token names. */
export interface RecipientReference {
  /** The email's tracking id (base64url of 16 bytes, as `createSecretToken` makes them). */
  trackingId: string;
  /**
   * The recipient's place among the email's recipients as stored: `to` in order, then `cc`,
   * then `bcc` (the order of `EmailStore` recipient rows). 0..65535.
   */
  recipientIndex: number;
}

const trackingIdBytes = 16;
const indexBytes = 2;
const macBytes = 10;
const alphabet = "abcdefghijklmnopqrstuvwxyz234567";

/** Creates the token of `reference` for `purpose`. Throws on a tracking id that is not 16 bytes of base64url. */
export function createRecipientToken(
  reference: RecipientReference,
  purpose: RecipientTokenPurpose,
  key: Uint8Array,
): string {
  const id = Buffer.from(reference.trackingId, "base64url");
  if (id.length !== trackingIdBytes || id.toString("base64url") !== reference.trackingId) {
    throw new Error("A recipient token needs a tracking id of 16 bytes in base64url");
  }
  if (
    !Number.isInteger(reference.recipientIndex) ||
    reference.recipientIndex < 0 ||
    reference.recipientIndex > 0xffff
  ) {
    throw new Error("A recipient index must be an integer from 0 to 65535");
  }
  const payload = Buffer.alloc(trackingIdBytes + indexBytes);
  id.copy(payload, 0);
  payload.writeUInt16BE(reference.recipientIndex, trackingIdBytes);
  return toBase32(Buffer.concat([payload, mac(payload, purpose, key)]));
}

/**
 * Reads a token made by {@link createRecipientToken} with the same purpose and key; undefined
 * for anything else (wrong length, wrong signature, another purpose). Case-insensitive.
 */
export function readRecipientToken(
  token: string,
  purpose: RecipientTokenPurpose,
  key: Uint8Array,
): RecipientReference | undefined {
  const spelled = token.toLowerCase();
  const bytes = fromBase32(spelled);
  if (!bytes || bytes.length !== trackingIdBytes + indexBytes + macBytes) return undefined;
  // The last character carries a padding bit: only the spelling we make reads, so one token has one form.
  if (toBase32(bytes) !== spelled) return undefined;
  const payload = bytes.subarray(0, trackingIdBytes + indexBytes);
  if (!timingSafeEqual(bytes.subarray(trackingIdBytes + indexBytes), mac(payload, purpose, key))) {
    return undefined;
  }
  return {
    trackingId: payload.subarray(0, trackingIdBytes).toString("base64url"),
    recipientIndex: payload.readUInt16BE(trackingIdBytes),
  };
}

function mac(payload: Buffer, purpose: RecipientTokenPurpose, key: Uint8Array): Buffer {
  return createHmac("sha256", key)
    .update(`mailpulse ${purpose}\n`)
    .update(payload)
    .digest()
    .subarray(0, macBytes);
}

function toBase32(bytes: Buffer): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

function fromBase32(text: string): Buffer | undefined {
  if (text.length > 64) return undefined;
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    const digit = alphabet.indexOf(char);
    if (digit < 0) return undefined;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}
