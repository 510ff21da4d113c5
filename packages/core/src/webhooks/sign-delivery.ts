import { createHmac } from "node:crypto";

/** What {@link signDelivery} signs. */
export interface DeliveryToSign {
  /** The event's id: the same on every retry, so receivers can drop duplicates. */
  eventId: string;
  /** When this attempt is sent; sent as integer seconds since the epoch. */
  timestamp: Date;
  /** The exact JSON text of the body; every signature covers its UTF-8 bytes. */
  body: string;
  /**
   * The webhook's signing secrets: the current one first, then the previous one while a rotation
   * lets it overlap (24 h). At least one.
   */
  secrets: readonly string[];
}

/** The user agent of every delivery, so receivers and their logs can tell MailPulse's requests apart. */
export const webhookUserAgent = "MailPulse-Webhooks/1";

/**
 * The request headers of one delivery attempt:
 *
 * - `x-webhook-signature`: the spec's scheme, lowercase hex HMAC-SHA256 of the body keyed with the
 *   current secret (the first). It covers neither the id nor the time, so it cannot stop a replay;
 * - `webhook-id`, `webhook-timestamp`, `webhook-signature`: Standard Webhooks, one `v1,<base64
 *   HMAC-SHA256 of "id.timestamp.body">` per secret, space-separated, so a receiver holding either
 *   the old or the new secret verifies during a rotation; the key is the secret's UTF-8 bytes;
 * - `x-webhook-id` and `x-webhook-timestamp`: the same id and time under the spec's prefix;
 * - `content-type: application/json` and `user-agent: MailPulse-Webhooks/1`.
 *
 * Throws a TypeError without a secret: a delivery nobody can verify must not be sent.
 */
export function signDelivery(delivery: DeliveryToSign): Record<string, string> {
  const [currentSecret] = delivery.secrets;
  if (currentSecret === undefined) throw new TypeError("signDelivery needs at least one secret");
  const timestamp = String(Math.floor(delivery.timestamp.getTime() / 1000));
  const signedContent = `${delivery.eventId}.${timestamp}.${delivery.body}`;
  const standardSignatures = delivery.secrets.map(
    (secret) => `v1,${createHmac("sha256", secret).update(signedContent, "utf8").digest("base64")}`,
  );
  return {
    "content-type": "application/json",
    "user-agent": webhookUserAgent,
    "x-webhook-id": delivery.eventId,
    "x-webhook-timestamp": timestamp,
    "x-webhook-signature": createHmac("sha256", currentSecret).update(delivery.body, "utf8").digest("hex"),
    "webhook-id": delivery.eventId,
    "webhook-timestamp": timestamp,
    "webhook-signature": standardSignatures.join(" "),
  };
}
