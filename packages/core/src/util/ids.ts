import { randomBytes } from "node:crypto";

/**
 * Generates resource ids: 48 bits of milliseconds then 80 random bits, hex, in a UUIDv7 layout.
 * Time-ordered ids keep B-tree inserts at the right edge of the index (DESIGN: Data).
 */
export function createResourceId(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An unguessable token of `bytes` random bytes (default 16 = 128 bits), base64url. */
export function createSecretToken(bytes = 16): string {
  return randomBytes(bytes).toString("base64url");
}
