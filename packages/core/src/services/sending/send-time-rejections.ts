import type { Logger } from "../../logger.js";
import type { RecipientRejection } from "../../ports/mail-provider.js";
import { judgeStatus } from "../../returned-mail/status-rule.js";
import type { DeliveryFeedbackService } from "../delivery-feedback-service.js";

/**
 * Whether a send-time rejection is a hard or a soft bounce, by the rule returned mail is judged
 * by (docs/deliverability.md, "The bounce rules"): the reply class, except that a full mailbox
 * (x.2.2, even as 552 5.2.2) and a retry timeout are soft. A rejection without a code is taken at
 * the provider's word (`permanent`).
 */
export function bounceTypeOf(rejection: RecipientRejection): "hard" | "soft" {
  if (rejection.smtpCode === null && rejection.status === null) return rejection.permanent ? "hard" : "soft";
  const { bounceType } = judgeStatus({
    action: "failed",
    status: rejection.status,
    smtpCode: rejection.smtpCode,
    text: rejection.diagnostic,
  });
  return bounceType === "hard" ? "hard" : "soft";
}

/** A send-time rejection as the send's answer lists it (`rejectedRecipients`). */
export function toRejectedRecipient(rejection: RecipientRejection) {
  return {
    address: rejection.address,
    bounceType: bounceTypeOf(rejection),
    status: rejection.status,
    diagnostic: rejection.diagnostic,
  };
}

/**
 * Records the recipients the receiving server refused at send time as bounces (source
 * `send-time`). The email is already stored as what it became; a failure here is logged, never
 * thrown: the send's outcome does not change with it.
 */
export async function recordSendTimeRejections(
  collaborators: { deliveryFeedback: Pick<DeliveryFeedbackService, "recordBounce">; logger: Logger },
  email: { organizationId: string; emailId: string },
  rejected: readonly RecipientRejection[],
): Promise<void> {
  for (const rejection of rejected) {
    try {
      await collaborators.deliveryFeedback.recordBounce({
        ...email,
        recipient: rejection.address,
        bounceType: bounceTypeOf(rejection),
        status: rejection.status,
        diagnostic: rejection.diagnostic,
        source: "send-time",
      });
    } catch (error) {
      collaborators.logger.error(
        `MailPulse: could not record the send-time rejection of ${rejection.address} (email ${email.emailId})`,
        error,
        { emailId: email.emailId },
      );
    }
  }
}
