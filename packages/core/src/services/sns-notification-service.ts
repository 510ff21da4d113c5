import { MailPulseError } from "../errors.js";
import type { Logger } from "../logger.js";
import { normalizeAddress } from "../util/normalize-address.js";
import type { DeliveryFeedbackService } from "./delivery-feedback-service.js";
import { findTrackedEmail } from "./feedback/recipient-lookup.js";
import { readSesEvent, type SesEvent } from "./feedback/ses-event.js";
import {
  createSnsCertificateCache,
  fetchSnsCertificate,
  type SnsCertificateFetcher,
} from "./feedback/sns-certificates.js";
import {
  isSnsCertificateUrl,
  isSnsUrl,
  type SnsEnvelope,
  snsEnvelopeSchema,
  verifySnsSignature,
} from "./feedback/sns-signature.js";
import type { ServiceDeps } from "./service-context.js";

/**
 * Amazon SES notifications through SNS (`MailPulseOptions.sns`, docs/deliverability.md): where
 * the `{basePath}/sns` route takes them from and what it trusts.
 */
export interface SnsOptions {
  /** The topic ARNs whose messages are accepted (required; others are refused 403). */
  topicArns: readonly string[];
  /**
   * Fetches SNS's signing certificate (PEM) from its URL, already checked to be
   * `https://sns.<region>.amazonaws.com[.cn]/...pem`. Default: a GET with a 5 s timeout. Each URL
   * is fetched once and cached. Tests pass one that answers a local certificate.
   */
  fetchCertificate?: SnsCertificateFetcher;
  /**
   * Confirm subscriptions of allowed topics by visiting their `SubscribeURL` (only an https URL on
   * an SNS host). Default true; false only logs the URL, for an operator to visit by hand.
   */
  confirmSubscriptions?: boolean;
  /** Visits a `SubscribeURL` (already checked). Default: a GET with a 5 s timeout; non-2xx throws. */
  openSubscribeUrl?: (url: string) => Promise<void>;
}

/** What a received SNS message came to. */
export type SnsOutcome =
  | { type: "subscription-confirmed" | "subscription-logged" | "unsubscribe-confirmation" }
  | { type: "notification"; recorded: number; ignored: string | null };

/** What the SNS route calls with the raw body. */
export interface SnsNotificationService {
  /**
   * Checks and acts on one SNS message (its body as posted). INVALID_JSON or BAD_REQUEST (400) for
   * a body that is not an SNS message; FORBIDDEN (403) for a topic not allowed or a signature that
   * does not verify; SERVICE_UNAVAILABLE (503, so SNS retries) when the certificate or the
   * subscribe URL cannot be fetched. Resolves once every bounce and complaint is recorded.
   */
  receive(body: string): Promise<SnsOutcome>;
}

const subscribeTimeoutMs = 5000;

const openSubscribeUrl = async (url: string): Promise<void> => {
  const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(subscribeTimeoutMs) });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`GET SubscribeURL answered ${response.status}`);
};

/** Builds the {@link SnsNotificationService}. */
export function createSnsNotificationService(
  deps: ServiceDeps,
  collaborators: { deliveryFeedback: DeliveryFeedbackService; logger: Logger; options: SnsOptions },
): SnsNotificationService {
  const { options, logger, deliveryFeedback } = collaborators;
  const topics = new Set(options.topicArns);
  const certificates = createSnsCertificateCache(options.fetchCertificate ?? fetchSnsCertificate);

  function parse(body: string): SnsEnvelope {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (error) {
      throw new MailPulseError("INVALID_JSON", `Invalid JSON in request body: ${(error as Error).message}`);
    }
    const parsed = snsEnvelopeSchema.safeParse(json);
    if (!parsed.success) throw new MailPulseError("BAD_REQUEST", "The body is not an Amazon SNS message");
    return parsed.data;
  }

  async function authenticate(envelope: SnsEnvelope): Promise<void> {
    // The allow-list first: a stranger's message costs no certificate fetch.
    if (!topics.has(envelope.TopicArn)) {
      throw new MailPulseError("FORBIDDEN", "SNS topic not allowed: add it to sns.topicArns");
    }
    if (!isSnsCertificateUrl(envelope.SigningCertURL)) {
      throw new MailPulseError("FORBIDDEN", "SigningCertURL is not an Amazon SNS certificate URL");
    }
    let certificate: string;
    try {
      certificate = await certificates.get(envelope.SigningCertURL);
    } catch (error) {
      logger.error(`MailPulse SNS: could not fetch ${envelope.SigningCertURL}`, error);
      throw new MailPulseError("SERVICE_UNAVAILABLE", "The SNS signing certificate could not be fetched");
    }
    if (!verifySnsSignature(envelope, certificate)) {
      throw new MailPulseError("FORBIDDEN", "The SNS signature does not verify");
    }
  }

  async function confirm(envelope: SnsEnvelope): Promise<SnsOutcome> {
    const url = envelope.SubscribeURL;
    if (!isSnsUrl(url) || options.confirmSubscriptions === false) {
      logger.info(`MailPulse SNS: subscription to ${envelope.TopicArn} not confirmed; SubscribeURL ${url}`);
      return { type: "subscription-logged" };
    }
    try {
      await (options.openSubscribeUrl ?? openSubscribeUrl)(url!);
    } catch (error) {
      logger.error(`MailPulse SNS: confirming the subscription to ${envelope.TopicArn} failed`, error);
      throw new MailPulseError("SERVICE_UNAVAILABLE", "The SNS subscription could not be confirmed");
    }
    logger.info(`MailPulse SNS: confirmed the subscription to ${envelope.TopicArn}`);
    return { type: "subscription-confirmed" };
  }

  async function record(event: SesEvent): Promise<SnsOutcome> {
    if (event.kind === "other")
      return { type: "notification", recorded: 0, ignored: `SES ${event.type} event` };
    const tracked = event.trackingId ? await findTrackedEmail(deps.storage, event.trackingId) : undefined;
    const email = tracked && (await deps.storage.emails.get(tracked.organizationId, tracked.emailId));
    if (!tracked || !email) {
      const why = event.trackingId
        ? `no email has the tracking id ${event.trackingId}`
        : "no X-MailPulse-Tracking-Id among mail.headers (turn on original headers in SES)";
      logger.info(`MailPulse SNS: SES ${event.kind} of ${event.sesMessageId} not attributed: ${why}`);
      return { type: "notification", recorded: 0, ignored: why };
    }
    // Only the email's own recipients: a notification cannot suppress an address the email never went to.
    const recipients = new Set(email.recipients.map((recipient) => recipient.address));
    const target = { organizationId: tracked.organizationId, emailId: tracked.emailId };
    const ours = (address: string): string | undefined => {
      const recipient = normalizeAddress(address);
      if (recipients.has(recipient)) return recipient;
      logger.info(`MailPulse SNS: ${recipient} is not a recipient of email ${tracked.emailId}; ignored`);
      return undefined;
    };
    let recorded = 0;
    if (event.kind === "bounce") {
      for (const { recipient: address, occurredAt, ...bounce } of event.bounces) {
        const recipient = ours(address);
        if (!recipient) continue;
        await deliveryFeedback.recordBounce({
          ...target,
          recipient,
          ...bounce,
          source: "sns",
          ...(occurredAt ? { occurredAt } : {}),
        });
        recorded += 1;
      }
    } else {
      for (const address of event.recipients) {
        const recipient = ours(address);
        if (!recipient) continue;
        await deliveryFeedback.recordComplaint({
          ...target,
          recipient,
          feedbackType: event.feedbackType,
          source: "sns",
          ...(event.occurredAt ? { occurredAt: event.occurredAt } : {}),
        });
        recorded += 1;
      }
    }
    return { type: "notification", recorded, ignored: null };
  }

  return {
    async receive(body) {
      const envelope = parse(body);
      await authenticate(envelope);
      switch (envelope.Type) {
        case "SubscriptionConfirmation":
          return confirm(envelope);
        case "UnsubscribeConfirmation":
          logger.info(`MailPulse SNS: unsubscribed from ${envelope.TopicArn}`);
          return { type: "unsubscribe-confirmation" };
        case "Notification": {
          const event = readSesEvent(envelope.Message);
          if (!event) {
            logger.info(`MailPulse SNS: message ${envelope.MessageId} is not an SES event; ignored`);
            return { type: "notification", recorded: 0, ignored: "not an SES event" };
          }
          return record(event);
        }
      }
    },
  };
}
