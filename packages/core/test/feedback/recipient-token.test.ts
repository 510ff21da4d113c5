import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createRecipientToken, readRecipientToken } from "../../src/services/feedback/recipient-token.js";

const key = randomBytes(32);
const trackingId = randomBytes(16).toString("base64url");

describe("recipient tokens", () => {
  it("read back what they name, whatever case a mail server folded them to", () => {
    const token = createRecipientToken({ trackingId, recipientIndex: 300 }, "return-path", key);
    expect(token).toMatch(/^[a-z2-7]{45}$/);
    expect(readRecipientToken(token, "return-path", key)).toEqual({ trackingId, recipientIndex: 300 });
    expect(readRecipientToken(token.toUpperCase(), "return-path", key)).toEqual({
      trackingId,
      recipientIndex: 300,
    });
  });

  it("refuse another purpose, another key, and any altered character", () => {
    const token = createRecipientToken({ trackingId, recipientIndex: 0 }, "unsubscribe", key);
    expect(readRecipientToken(token, "return-path", key)).toBeUndefined();
    expect(readRecipientToken(token, "unsubscribe", randomBytes(32))).toBeUndefined();
    for (let at = 0; at < token.length; at += 1) {
      const altered = token.slice(0, at) + (token[at] === "a" ? "b" : "a") + token.slice(at + 1);
      expect(readRecipientToken(altered, "unsubscribe", key)).toBeUndefined();
    }
    expect(readRecipientToken("", "unsubscribe", key)).toBeUndefined();
    expect(readRecipientToken("not-base32!", "unsubscribe", key)).toBeUndefined();
    expect(readRecipientToken("a".repeat(5000), "unsubscribe", key)).toBeUndefined();
  });

  it("refuse to make a token of a malformed tracking id or index", () => {
    expect(() =>
      createRecipientToken({ trackingId: "short", recipientIndex: 0 }, "unsubscribe", key),
    ).toThrow();
    expect(() => createRecipientToken({ trackingId, recipientIndex: 70_000 }, "unsubscribe", key)).toThrow();
  });
});
