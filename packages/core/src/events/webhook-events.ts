import type { OutboxEvent, WebhookEventType } from "../ports/storage.js";
import { createSecretToken } from "../util/ids.js";

/**
 * Builds the body every subscribed webhook receives for an event (the spec leaves it open; see
 * docs/webhooks.md): `{ id, type, createdAt, data }`. `id` is unique per event so receivers can
 * drop duplicates of a redelivered event.
 */
export function createWebhookEvent(
  type: WebhookEventType,
  createdAt: Date,
  data: Record<string, unknown>,
): OutboxEvent {
  const payload = JSON.stringify({
    id: `evt_${createSecretToken(12)}`,
    type,
    createdAt: createdAt.toISOString(),
    data,
  });
  return { type, payload, createdAt };
}
