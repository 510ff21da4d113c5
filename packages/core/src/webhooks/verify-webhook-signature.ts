import { createHmac, timingSafeEqual } from "node:crypto";

/** A delivery that failed {@link verifyWebhookSignature}; the message says which check failed. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

/** Request headers as Node (`req.headers`), Express, Fastify or the Fetch API (`Headers`) hand them over. */
export type WebhookRequestHeaders = Record<string, string | string[] | undefined> | Headers;

/** What {@link verifyWebhookSignature} checks. */
export interface VerifyWebhookSignatureInput {
  /**
   * The request body exactly as received, before any JSON parsing: re-serialising parsed JSON
   * changes bytes (spacing, escapes, key order) and breaks the signature.
   */
  rawBody: string | Buffer | Uint8Array;
  headers: WebhookRequestHeaders;
  /** The webhook's `secret`, as the API returned it. */
  secret: string;
  /** How far `webhook-timestamp` may be from now, either way, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The time to check the timestamp against; default the system clock. */
  now?: Date;
}

function header(headers: WebhookRequestHeaders, name: string): string | undefined {
  if (typeof Headers !== "undefined" && headers instanceof Headers) return headers.get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  // Node lower-cases header names; a hand-built record may not have.
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(" ") : value;
}

function requiredHeader(headers: WebhookRequestHeaders, name: string): string {
  const value = header(headers, name)?.trim();
  if (!value) throw new WebhookVerificationError(`Missing ${name} header`);
  return value;
}

function bodyBytes(rawBody: unknown): Buffer {
  if (typeof rawBody === "string") return Buffer.from(rawBody, "utf8");
  if (rawBody instanceof Uint8Array)
    return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  throw new WebhookVerificationError(
    "rawBody must be the request body as received (a string or Buffer), not parsed JSON",
  );
}

function checkTimestamp(timestamp: string, now: Date, toleranceSeconds: number): void {
  if (!/^\d+$/.test(timestamp)) {
    throw new WebhookVerificationError("Invalid webhook-timestamp header: expected integer seconds");
  }
  const ageSeconds = Math.floor(now.getTime() / 1000) - Number(timestamp);
  if (ageSeconds > toleranceSeconds) {
    throw new WebhookVerificationError(
      `Timestamp too old: ${ageSeconds} s ago, more than the ${toleranceSeconds} s tolerated`,
    );
  }
  if (-ageSeconds > toleranceSeconds) {
    throw new WebhookVerificationError(
      `Timestamp too new: ${-ageSeconds} s ahead, more than the ${toleranceSeconds} s tolerated`,
    );
  }
}

/**
 * Checks that a request is a MailPulse delivery signed with `secret`, the Standard Webhooks way:
 * `webhook-signature` holds one or more space-separated `v1,<base64>` entries, one of which must
 * equal the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the
 * secret's UTF-8 bytes (compared in constant time); `webhook-timestamp` must be within
 * `toleranceSeconds` (default 300) of `now`, which is what makes a captured delivery useless to
 * replay later. Returns nothing; throws {@link WebhookVerificationError} saying what failed: a
 * missing header, a timestamp too old or too new, or no matching signature.
 *
 * Receivers should also drop a `webhook-id` they have already processed: retries reuse it.
 */
export function verifyWebhookSignature(input: VerifyWebhookSignatureInput): void {
  const id = requiredHeader(input.headers, "webhook-id");
  const timestamp = requiredHeader(input.headers, "webhook-timestamp");
  const signatures = requiredHeader(input.headers, "webhook-signature");
  checkTimestamp(timestamp, input.now ?? new Date(), input.toleranceSeconds ?? 300);

  const expected = Buffer.from(
    createHmac("sha256", input.secret)
      .update(`${id}.${timestamp}.`, "utf8")
      .update(bodyBytes(input.rawBody))
      .digest("base64"),
  );
  const matches = signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2);
    if (version !== "v1" || signature === undefined) return false;
    const given = Buffer.from(signature);
    // timingSafeEqual needs equal lengths; a length differing reveals nothing about the secret.
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) {
    throw new WebhookVerificationError(
      "No matching signature: the body was modified, or it was signed with another secret",
    );
  }
}
