import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** Marks a sealed value; anything without it was stored before a key was configured (plaintext). */
const sealedPrefix = "mpenc:v1:";

/**
 * Encrypts secrets at rest (DKIM private keys, webhook secrets) with AES-256-GCM.
 *
 * With a key, `seal` returns `mpenc:v1:<iv>.<tag>.<ciphertext>` (base64url parts, a fresh 96-bit
 * IV each time); `open` authenticates and decrypts it. Without a key `seal` stores the value as it
 * is. `open` reads plaintext values either way, so setting a key later keeps old rows readable.
 */
export interface SecretBox {
  /** Whether values are encrypted (a key was given). */
  readonly encrypts: boolean;
  /** The value to store for `plaintext`. */
  seal(plaintext: string): string;
  /**
   * The plaintext of a stored value. Throws when the value is sealed and the key is missing or
   * wrong, or the value was tampered with (GCM authentication fails).
   */
  open(stored: string): string;
}

/**
 * Decodes an `encryptionKey` option: 32 bytes, base64 (or base64url) encoded, or the raw bytes.
 * Throws an error naming the problem otherwise, so a misconfigured key fails at start.
 */
export function decodeEncryptionKey(key: string | Uint8Array): Buffer {
  const bytes = typeof key === "string" ? Buffer.from(key.trim(), "base64") : Buffer.from(key);
  if (bytes.length !== 32) {
    throw new Error(
      `encryptionKey must be 32 bytes (base64-encoded, e.g. from \`openssl rand -base64 32\`), got ${bytes.length}`,
    );
  }
  return bytes;
}

/** Builds a {@link SecretBox}; without `key` it stores values as they are. */
export function createSecretBox(key?: string | Uint8Array): SecretBox {
  const keyBytes = key === undefined ? undefined : decodeEncryptionKey(key);
  return {
    encrypts: keyBytes !== undefined,
    seal(plaintext) {
      if (!keyBytes) return plaintext;
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", keyBytes, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"));
      return `${sealedPrefix}${parts.join(".")}`;
    },
    open(stored) {
      if (!stored.startsWith(sealedPrefix)) return stored;
      if (!keyBytes)
        throw new Error("This secret is encrypted at rest: configure the encryptionKey it was sealed with");
      const [iv, tag, ciphertext] = stored
        .slice(sealedPrefix.length)
        .split(".")
        .map((part) => Buffer.from(part, "base64url"));
      if (!iv || !tag || !ciphertext) throw new Error("A stored secret is malformed");
      const decipher = createDecipheriv("aes-256-gcm", keyBytes, iv);
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
      } catch (error) {
        throw new Error("A stored secret could not be decrypted: wrong encryptionKey or altered data", {
          cause: error,
        });
      }
    },
  };
}
