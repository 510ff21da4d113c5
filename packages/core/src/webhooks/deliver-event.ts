import type { WebhookEvent } from "../events/event-body.js";
import type { Clock } from "../ports/clock.js";
import type { WebhookRecord } from "../ports/storage.js";
import type { WebhookResponse, WebhookSender } from "../ports/webhook-sender.js";
import type { SecretBox } from "../util/secret-box.js";
import { signDelivery } from "./sign-delivery.js";

/** A test delivery's body: an event of the webhook's first type, marked `test`. */
export type TestWebhookEvent = WebhookEvent & { test: true };

/** Sends one event to one webhook now, signed; resolves with what the receiver answered. */
export type DeliverEvent = (
  webhook: WebhookRecord,
  event: WebhookEvent | TestWebhookEvent,
) => Promise<WebhookResponse>;

/**
 * Builds {@link DeliverEvent}: serialises the body once (the signatures cover those exact
 * bytes), signs it with the current secret and, during a rotation, the previous one, and posts it.
 */
export function createEventDelivery(deps: {
  sender: WebhookSender;
  secrets: SecretBox;
  clock: Clock;
}): DeliverEvent {
  return (webhook, event) => {
    const now = deps.clock.now();
    const secrets = [deps.secrets.open(webhook.secret)];
    if (webhook.previousSecret && webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > now) {
      secrets.push(deps.secrets.open(webhook.previousSecret));
    }
    const body = JSON.stringify(event);
    const headers = signDelivery({ eventId: event.id, timestamp: now, body, secrets });
    return deps.sender.post({ url: webhook.url, body, headers });
  };
}
