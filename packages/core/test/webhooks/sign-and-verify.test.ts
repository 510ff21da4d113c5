import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signDelivery } from "../../src/webhooks/sign-delivery.js";
import {
  verifyWebhookSignature,
  WebhookVerificationError,
} from "../../src/webhooks/verify-webhook-signature.js";

const secret = "whs3cr3t_0123456789abcdefABCDEF_";
const previousSecret = "older_secret_0123456789abcdefXYZ";
const body = JSON.stringify({ type: "EMAIL_SENT", data: { to: ["zoë@example.com"], subject: "Grüße 🎉" } });
const sentAt = new Date("2026-11-23T13:30:00.900Z");

/** The spec's scheme, written the way a receiver would: hex HMAC of the raw body, constant-time compare. */
function specSignatureMatches(rawBody: string, header: string, key: string): boolean {
  const expected = Buffer.from(createHmac("sha256", key).update(rawBody, "utf8").digest("hex"));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The standardwebhooks package takes the key base64-encoded; ours is the secret's UTF-8 bytes. */
function standardWebhook(key: string): Webhook {
  return new Webhook(Buffer.from(key, "utf8").toString("base64"));
}

function verificationError(run: () => void): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error("expected a WebhookVerificationError");
}

describe("signDelivery", () => {
  it("sends every header the receiver needs, timestamps in whole seconds", () => {
    const headers = signDelivery({ eventId: "evt_123", timestamp: sentAt, body, secrets: [secret] });
    expect(Object.keys(headers).sort()).toEqual([
      "content-type",
      "user-agent",
      "webhook-id",
      "webhook-signature",
      "webhook-timestamp",
      "x-webhook-id",
      "x-webhook-signature",
      "x-webhook-timestamp",
    ]);
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["user-agent"]).toBe("MailPulse-Webhooks/1");
    expect(headers["webhook-id"]).toBe("evt_123");
    expect(headers["x-webhook-id"]).toBe("evt_123");
    expect(headers["webhook-timestamp"]).toBe("1795440600");
    expect(headers["x-webhook-timestamp"]).toBe("1795440600");
    expect(headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{64}$/);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it("signs the body the spec's way: lowercase hex HMAC-SHA256 keyed with the secret", () => {
    const headers = signDelivery({ eventId: "evt_1", timestamp: sentAt, body, secrets: [secret] });
    expect(specSignatureMatches(body, headers["x-webhook-signature"]!, secret)).toBe(true);
    expect(specSignatureMatches(`${body} `, headers["x-webhook-signature"]!, secret)).toBe(false);
  });

  it("signs id, timestamp and body the Standard Webhooks way, verified by the standardwebhooks package", () => {
    const headers = signDelivery({ eventId: "evt_1", timestamp: new Date(), body, secrets: [secret] });
    expect(standardWebhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => standardWebhook(previousSecret).verify(body, headers)).toThrow(
      "No matching signature found",
    );
  });

  it("during a rotation signs with both secrets; x-webhook-signature keeps the current one", () => {
    const headers = signDelivery({
      eventId: "evt_2",
      timestamp: new Date(),
      body,
      secrets: [secret, previousSecret],
    });
    const entries = headers["webhook-signature"]!.split(" ");
    expect(entries).toHaveLength(2);
    expect(entries.every((entry) => entry.startsWith("v1,"))).toBe(true);
    expect(entries[0]).not.toBe(entries[1]);
    expect(standardWebhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(standardWebhook(previousSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => standardWebhook("a third secret, never used here").verify(body, headers)).toThrow();
    expect(specSignatureMatches(body, headers["x-webhook-signature"]!, secret)).toBe(true);
    expect(specSignatureMatches(body, headers["x-webhook-signature"]!, previousSecret)).toBe(false);
  });

  it("refuses to sign without a secret", () => {
    expect(() => signDelivery({ eventId: "evt_3", timestamp: sentAt, body, secrets: [] })).toThrow(TypeError);
  });
});

describe("verifyWebhookSignature", () => {
  const now = new Date("2026-11-23T13:31:00Z");
  const signed = (overrides: { body?: string; secrets?: string[]; timestamp?: Date } = {}) =>
    signDelivery({
      eventId: "evt_9",
      timestamp: overrides.timestamp ?? sentAt,
      body: overrides.body ?? body,
      secrets: overrides.secrets ?? [secret],
    });

  it("accepts a delivery as a string, a Buffer or a Uint8Array, with Node, plain or Fetch headers", () => {
    const headers = signed();
    const bytes = Buffer.from(body, "utf8");
    expect(() => verifyWebhookSignature({ rawBody: body, headers, secret, now })).not.toThrow();
    expect(() => verifyWebhookSignature({ rawBody: bytes, headers, secret, now })).not.toThrow();
    expect(() =>
      verifyWebhookSignature({ rawBody: new Uint8Array(bytes), headers, secret, now }),
    ).not.toThrow();
    expect(() =>
      verifyWebhookSignature({ rawBody: body, headers: new Headers(headers), secret, now }),
    ).not.toThrow();
    const shouting = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]),
    );
    expect(() => verifyWebhookSignature({ rawBody: body, headers: shouting, secret, now })).not.toThrow();
  });

  it("accepts a signature made by the standardwebhooks package", () => {
    const signature = standardWebhook(secret).sign("msg_1", now, body);
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(now.getTime() / 1000),
      "webhook-signature": signature,
    };
    expect(() => verifyWebhookSignature({ rawBody: body, headers, secret, now })).not.toThrow();
  });

  it("accepts either secret while a rotation sends two signatures", () => {
    const headers = signed({ secrets: [secret, previousSecret] });
    expect(() => verifyWebhookSignature({ rawBody: body, headers, secret, now })).not.toThrow();
    expect(() =>
      verifyWebhookSignature({ rawBody: body, headers, secret: previousSecret, now }),
    ).not.toThrow();
  });

  it("rejects a tampered body, a wrong secret and a changed id", () => {
    const headers = signed();
    const noMatch = "No matching signature: the body was modified, or it was signed with another secret";
    expect(
      verificationError(() =>
        verifyWebhookSignature({ rawBody: body.replace("Grüße", "Grüsse"), headers, secret, now }),
      ).message,
    ).toBe(noMatch);
    expect(
      verificationError(() => verifyWebhookSignature({ rawBody: body, headers, secret: previousSecret, now }))
        .message,
    ).toBe(noMatch);
    const otherId = { ...headers, "webhook-id": "evt_10" };
    expect(
      verificationError(() => verifyWebhookSignature({ rawBody: body, headers: otherId, secret, now }))
        .message,
    ).toBe(noMatch);
  });

  it("rejects a signature of another scheme version or a truncated one", () => {
    const [, base64] = signed()["webhook-signature"]!.split(",");
    for (const signature of [`v2,${base64}`, `v1,${base64!.slice(0, -2)}`, "v1", ""]) {
      const headers = { ...signed(), "webhook-signature": signature };
      expect(() => verifyWebhookSignature({ rawBody: body, headers, secret, now })).toThrow(
        WebhookVerificationError,
      );
    }
  });

  it("rejects timestamps outside the tolerance, either way, and honours a custom tolerance", () => {
    const headers = signed({ timestamp: new Date(now.getTime() - 301_000) });
    expect(
      verificationError(() => verifyWebhookSignature({ rawBody: body, headers, secret, now })).message,
    ).toBe("Timestamp too old: 301 s ago, more than the 300 s tolerated");
    expect(() =>
      verifyWebhookSignature({ rawBody: body, headers, secret, now, toleranceSeconds: 600 }),
    ).not.toThrow();
    const future = signed({ timestamp: new Date(now.getTime() + 301_000) });
    expect(
      verificationError(() => verifyWebhookSignature({ rawBody: body, headers: future, secret, now }))
        .message,
    ).toBe("Timestamp too new: 301 s ahead, more than the 300 s tolerated");
    const edge = signed({ timestamp: new Date(now.getTime() - 300_000) });
    expect(() => verifyWebhookSignature({ rawBody: body, headers: edge, secret, now })).not.toThrow();
  });

  it("checks the timestamp against the system clock by default", () => {
    const stale = signed({ timestamp: new Date(Date.now() - 3_600_000) });
    expect(() => verifyWebhookSignature({ rawBody: body, headers: stale, secret })).toThrow(
      "Timestamp too old",
    );
    const fresh = signed({ timestamp: new Date() });
    expect(() => verifyWebhookSignature({ rawBody: body, headers: fresh, secret })).not.toThrow();
  });

  it("says which header is missing or malformed", () => {
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
      const headers: Record<string, string | undefined> = { ...signed(), [name]: undefined };
      expect(
        verificationError(() => verifyWebhookSignature({ rawBody: body, headers, secret, now })).message,
      ).toBe(`Missing ${name} header`);
    }
    const malformed = { ...signed(), "webhook-timestamp": "2026-11-23T13:30:00Z" };
    expect(
      verificationError(() => verifyWebhookSignature({ rawBody: body, headers: malformed, secret, now }))
        .message,
    ).toBe("Invalid webhook-timestamp header: expected integer seconds");
  });

  it("tells a receiver who passed parsed JSON to pass the raw body", () => {
    const rawBody = JSON.parse(body) as unknown as string;
    expect(
      verificationError(() => verifyWebhookSignature({ rawBody, headers: signed(), secret, now })).message,
    ).toBe("rawBody must be the request body as received (a string or Buffer), not parsed JSON");
  });
});
