import { randomBytes } from "node:crypto";

let lastMs = 0;
let sequence = 0;

/**
 * Generates resource ids in the UUIDv7 layout: 48 bits of milliseconds, a 12-bit sequence, then
 * 62 random bits. Time-ordered ids keep B-tree inserts at the right edge of the index (DESIGN:
 * Data), and the sequence (RFC 9562, method 1) keeps ids made in the same millisecond in creation
 * order, so "newest first" listings that break ties by id stay stable.
 */
export function createResourceId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    // Start low in the range so a burst within one millisecond does not overflow the counter.
    sequence = randomBytes(2).readUInt16BE(0) & 0x3ff;
  } else {
    sequence += 1;
    if (sequence > 0xfff) {
      lastMs += 1;
      sequence = 0;
    }
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An unguessable token of `bytes` random bytes (default 16 = 128 bits), base64url. */
export function createSecretToken(bytes = 16): string {
  return randomBytes(bytes).toString("base64url");
}
