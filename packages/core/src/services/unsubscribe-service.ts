import type { DeliveryFeedbackService } from "./delivery-feedback-service.js";
import { findRecipient, type RecipientTarget } from "./feedback/recipient-lookup.js";
import { readRecipientToken } from "./feedback/recipient-token.js";
import type { SigningKeySource } from "./feedback/signing-key.js";
import type { ServiceDeps } from "./service-context.js";

/** How an unsubscribe link was followed: RFC 8058's one-click POST, or the page's button. */
export type UnsubscribeLinkSource = "one-click" | "page";

/**
 * What the one-click unsubscribe URL (`{basePath}/u/<token>`, docs/deliverability.md) calls: the
 * token is an `unsubscribe` recipient token (`createRecipientToken`) signed with the instance's
 * signing key, naming one recipient of one sent email.
 */
export interface UnsubscribeService {
  /** The recipient `token` names, or `undefined` for a forged, altered or unknown one. Reads only. */
  find(token: string): Promise<RecipientTarget | undefined>;
  /**
   * Unsubscribes the recipient `token` names (`deliveryFeedback.recordUnsubscribe`: the address is
   * suppressed with reason `unsubscribe`). Idempotent: a second call changes nothing and resolves
   * the same. Resolves the recipient, or `undefined` (nothing recorded) for a forged, altered or
   * unknown token: the route answers that with a page or a JSON 404, as fits the caller.
   */
  unsubscribe(token: string, source: UnsubscribeLinkSource): Promise<RecipientTarget | undefined>;
}

/** Builds the {@link UnsubscribeService}. */
export function createUnsubscribeService(
  deps: ServiceDeps,
  collaborators: { deliveryFeedback: DeliveryFeedbackService; signingKey: SigningKeySource },
): UnsubscribeService {
  async function find(token: string): Promise<RecipientTarget | undefined> {
    const reference = readRecipientToken(token, "unsubscribe", await collaborators.signingKey.key());
    return reference && findRecipient(deps.storage, reference);
  }
  return {
    find,
    async unsubscribe(token, source) {
      const target = await find(token);
      if (!target) return undefined;
      // `false` means "already recorded" here (the email was just found): the same outcome.
      await collaborators.deliveryFeedback.recordUnsubscribe({ ...target, source });
      return target;
    },
  };
}
