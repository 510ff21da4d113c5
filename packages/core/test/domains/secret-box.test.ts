import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretBox } from "../../src/util/secret-box.js";

describe("secret box (AES-256-GCM at rest)", () => {
  const key = randomBytes(32).toString("base64");

  it("seals to ciphertext that opens with the key only", () => {
    const box = createSecretBox(key);
    const sealed = box.seal("-----BEGIN PRIVATE KEY-----\nabc");
    expect(sealed.startsWith("mpenc:v1:")).toBe(true);
    expect(sealed).not.toContain("PRIVATE KEY");
    expect(box.seal("same")).not.toBe(box.seal("same"));
    expect(box.open(sealed)).toBe("-----BEGIN PRIVATE KEY-----\nabc");
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow(/wrong encryptionKey/);
    expect(() => createSecretBox().open(sealed)).toThrow(/configure the encryptionKey/);
  });

  it("refuses altered ciphertext", () => {
    const box = createSecretBox(key);
    const sealed = box.seal("secret");
    const parts = sealed.split(".");
    const ciphertext = Buffer.from(parts[2] ?? "", "base64url");
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    parts[2] = ciphertext.toString("base64url");
    expect(() => box.open(parts.join("."))).toThrow(/could not be decrypted/);
  });

  it("stores as is without a key, and reads plaintext rows after a key is set", () => {
    expect(createSecretBox().seal("plain")).toBe("plain");
    expect(createSecretBox().encrypts).toBe(false);
    expect(createSecretBox(key).open("plain")).toBe("plain");
  });

  it("refuses a key that is not 32 bytes", () => {
    expect(() => createSecretBox(randomBytes(16).toString("base64"))).toThrow(/32 bytes.*got 16/);
  });
});
