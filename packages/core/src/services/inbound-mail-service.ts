import type { InboundMessageRecord } from "../ports/storage.js";
import { classifyReturnedMail } from "../returned-mail/classify-returned-mail.js";
import type { ReturnedMailVerdict } from "../returned-mail/returned-mail-verdict.js";
import { sanitizeText } from "../util/sanitize-text.js";
import type { DeliveryFeedbackService } from "./delivery-feedback-service.js";
import type { InboundMessage, InboundMessagePage } from "./inbound/inbound-message-answers.js";
import { type InboundMessageListInput, inboundMessageListSchema } from "./inbound/inbound-message-input.js";
import {
  type AcceptedInboundRecipient,
  type InboundRecipient,
  resolveInboundRecipient,
} from "./inbound/inbound-recipient.js";
import { loggedHeaderFields } from "./inbound/message-header.js";
import { recordReturnedMail } from "./inbound/record-returned-mail.js";
import type { ServiceDeps } from "./service-context.js";
import { type ValidatedMethod, validatedMethod } from "./validation/validated-method.js";

export type {
  AcceptedInboundRecipient,
  InboundMessage,
  InboundMessageListInput,
  InboundMessagePage,
  InboundRecipient,
};

/** Characters kept of a log row's summary. */
export const maxInboundSummaryLength = 1000;

/** A message the inbound receiver took in whole, with its accepted envelope. */
export interface InboundDelivery {
  /** MAIL FROM; empty for the null sender. */
  envelopeFrom: string;
  /** The accepted RCPT TO recipients, as {@link InboundMailService.checkRecipient} resolved them. */
  recipients: readonly AcceptedInboundRecipient[];
  /** The message (its first bytes when it was larger than the receiver reads). */
  raw: Uint8Array;
}

/** What {@link InboundMailService.receive} made of a message. */
export interface InboundReceipt {
  kind: InboundMessage["kind"];
  summary: string;
  /** The inbound log row. */
  logId: number;
}

/**
 * Mail that comes back to the return-path domains (docs/deliverability.md, "The inbound
 * receiver"): which envelope recipients are accepted, what a message changes (bounces,
 * complaints and mailto unsubscribes recorded through the delivery feedback service), and the
 * bounded inbound log the operator reads (`GET /api/inbound-messages`). The SMTP transport is
 * `background/inbound-smtp.ts`.
 */
export interface InboundMailService {
  /** The organization's inbound log, newest first, paged by `before`. VALIDATION_FAILED for a bad query. */
  list: ValidatedMethod<[organizationId: string], typeof inboundMessageListSchema, InboundMessagePage, true>;
  /** Resolves an envelope recipient (RCPT TO); rejects only when storage fails. */
  checkRecipient(address: string): Promise<InboundRecipient>;
  /**
   * Classifies the message, records what it reports, and logs it; resolves once all of it is
   * stored (the receiver answers 250 then). Rejects when storage fails: recording is idempotent,
   * so the sender's retry records nothing twice. Never rejects for what the message contains.
   */
  receive(delivery: InboundDelivery): Promise<InboundReceipt>;
}

/** Builds the {@link InboundMailService}. */
export function createInboundMailService(
  deps: ServiceDeps,
  collaborators: {
    feedback: DeliveryFeedbackService;
    signingKey: () => Promise<Uint8Array>;
    platformDomain: string;
  },
): InboundMailService {
  const { storage, clock } = deps;
  const { feedback } = collaborators;

  return {
    list: validatedMethod(
      inboundMessageListSchema,
      "inbound.list",
      { leading: 1, whenOmitted: {} },
      async (organizationId: string, input) => {
        const records = await storage.inboundMessages.list(organizationId, input);
        const last = records.at(-1);
        return {
          data: records.map(toApiInboundMessage),
          nextCursor: last && records.length === input.limit ? String(last.id) : null,
        };
      },
    ),

    checkRecipient: (address) =>
      resolveInboundRecipient(
        { storage, platformDomain: collaborators.platformDomain, signingKey: collaborators.signingKey },
        address,
      ),

    async receive(delivery) {
      const receivedAt = clock.now();
      const returnPathTargets = delivery.recipients.flatMap((recipient) =>
        recipient.purpose === "return-path" && recipient.target ? [recipient.target] : [],
      );
      const unsubscribeTargets = delivery.recipients.flatMap((recipient) =>
        recipient.purpose === "unsubscribe" && recipient.target ? [recipient.target] : [],
      );
      const verdict = await classifyReturnedMail(delivery.raw, {
        ...(returnPathTargets[0] ? { envelopeRecipientHint: returnPathTargets[0].recipient } : {}),
      });
      const actions: string[] = [];
      for (const target of unsubscribeTargets) {
        await feedback.recordUnsubscribe({ ...target, occurredAt: receivedAt, source: "mailto" });
        actions.push(`Unsubscribe of ${target.recipient} recorded.`);
      }
      const domainOrganizationId = delivery.recipients.find(
        (recipient) => recipient.domainOrganizationId !== null,
      )?.domainOrganizationId;
      const recorded = await recordReturnedMail({ storage, feedback }, verdict, {
        returnPathTargets,
        domainOrganizationId: domainOrganizationId ?? null,
        occurredAt: receivedAt,
      });
      actions.push(...recorded.actions);
      const named = unsubscribeTargets[0] ?? returnPathTargets[0];
      const kind = unsubscribeTargets.length > 0 ? "unsubscribe" : verdict.kind;
      const summary = summarize(verdict, actions);
      const logId = await storage.inboundMessages.add({
        organizationId: named?.organizationId ?? recorded.organizationId ?? domainOrganizationId ?? null,
        emailId: named?.emailId ?? recorded.emailId,
        receivedAt,
        envelopeFrom: sanitizeText(delivery.envelopeFrom).slice(0, 320),
        envelopeTo: delivery.recipients.map((recipient) => recipient.address),
        kind,
        summary,
        ...loggedHeaderFields(delivery.raw),
      });
      return { kind, summary, logId };
    },
  };
}

/** The verdict's reasons and what was recorded, bounded. */
function summarize(verdict: ReturnedMailVerdict, actions: readonly string[]): string {
  const text = [`${verdict.kind}:`, ...verdict.reasons.slice(0, 4), ...actions].join(" ");
  return sanitizeText(text).slice(0, maxInboundSummaryLength);
}

/** A log row as the API shows it. */
function toApiInboundMessage(record: InboundMessageRecord): InboundMessage {
  return {
    id: record.id,
    receivedAt: record.receivedAt.toISOString(),
    envelopeFrom: record.envelopeFrom,
    envelopeTo: record.envelopeTo,
    kind: record.kind,
    summary: record.summary,
    emailId: record.emailId,
    subject: record.subject,
    messageId: record.messageId,
  };
}
