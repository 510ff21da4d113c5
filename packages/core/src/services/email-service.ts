import { MailPulseError } from "../errors.js";
import { htmlToTextInSlices } from "../html/html-to-text.js";
import type { Logger } from "../logger.js";
import type { MailAddress, MailProvider } from "../ports/mail-provider.js";
import type { EmailTagRecord, LinkRecord, TrackedEmail } from "../ports/storage.js";
import type { InFlight } from "../util/in-flight.js";
import type { ResolveCampaign } from "./campaigns/resolve-campaign.js";
import { formatMailbox } from "./sending/addresses.js";
import { buildTrackedContent, recipientRecords } from "./sending/build-tracked-email.js";
import type { RegisterEmailResult, SendEmailResult } from "./sending/email-answers.js";
import { type EmailDetail, toEmailDetail } from "./sending/email-detail.js";
import { registerEmailSchema, sendEmailSchema } from "./sending/send-input.js";
import { decideSender } from "./sending/sender-rule.js";
import { allRecipientsSuppressed, applySuppressionList } from "./sending/suppression-check.js";
import { trackingBaseUrl } from "./sending/tracking-base-url.js";
import type { TrackingUrls } from "./sending/tracking-urls.js";
import type { ServiceDeps } from "./service-context.js";
import { aroundValidated, type ValidatedMethod, validatedMethod } from "./validation/validated-method.js";

export type { RegisterEmailResult, SendEmailResult };

/** Tracked emails: send them, or register ones another system sends. */
export interface EmailService {
  /**
   * Sends a tracked email: records it and its links, sends through the provider, then marks it
   * sent and queues EMAIL_SENT. VALIDATION_FAILED for an invalid input (also for `htmlContent`
   * nesting elements deeper than `MAX_HTML_NESTING_DEPTH` when no `text` is given); provider
   * failure: the email is kept as `failed` and DELIVERY_FAILED (`Email delivery failed (email
   * <id>)`) is thrown. Suppressed recipients are dropped (docs/deliverability.md); when every `to`
   * is suppressed nothing is sent, the email is kept as `suppressed` and RECIPIENTS_SUPPRESSED
   * (422) is thrown naming them.
   */
  send: ValidatedMethod<[organizationId: string], typeof sendEmailSchema, SendEmailResult>;
  /**
   * Registers an email another system sends; returns its tracked HTML. Counts as sent from now.
   * VALIDATION_FAILED for an invalid input. Suppressed `to` addresses are dropped from the record
   * and named in the answer (the caller must not send to them); when every `to` is suppressed
   * the email is kept as `suppressed` and RECIPIENTS_SUPPRESSED (422) is thrown.
   */
  register: ValidatedMethod<[organizationId: string], typeof registerEmailSchema, RegisterEmailResult>;
  /**
   * An email of the organization, sent or registered, whatever its status (a failed send is
   * readable here, with its reason). NOT_FOUND when the organization has no such email.
   */
  get(organizationId: string, emailId: string): Promise<EmailDetail>;
}

/** What the email service needs beyond the common deps. */
export interface EmailServiceOptions {
  mailProvider: MailProvider;
  /** Finds (or creates, by name) the campaign of an email: `createCampaignResolver`. */
  resolveCampaign: ResolveCampaign;
  /** The instance's public address: the origin of tracking URLs without a custom tracking domain. */
  baseUrl: string;
  /** Builds the tracking URLs from the tracking routes' paths. */
  trackingUrls: TrackingUrls;
  platformDomain: string;
  logger: Logger;
  /** Opens DKIM private keys stored sealed (`encryptionKey`). Default: keys are stored as they are. */
  openSecret?: (stored: string) => string;
  /** Told of every email once it is `sent` (or registered), with its links: fills the tracking cache. */
  onSent?: (email: TrackedEmail, links: readonly LinkRecord[]) => void;
  /**
   * Counts every send and registration under way, so `stop()` can wait for them before it closes
   * the mail provider and hands the storage back (a send cut there would be delivered and still
   * stored as failed, or never delivered at all).
   */
  inFlight?: InFlight;
}

/** Builds the {@link EmailService}. */
export function createEmailService(deps: ServiceDeps, options: EmailServiceOptions): EmailService {
  const { storage, clock, createId } = deps;

  /**
   * What sending and registering share: the campaign, the tracked content, and the email record
   * to store (without its sender fields, which only sending decides).
   */
  async function prepare(
    organizationId: string,
    operation: string,
    input: {
      campaignId?: string;
      htmlContent: string;
      tracking?: { opens?: boolean; clicks?: boolean };
      subject: string;
      metadata?: Record<string, unknown>;
      tags?: EmailTagRecord[];
      to: MailAddress[];
      cc?: MailAddress[];
      bcc?: MailAddress[];
    },
  ) {
    const campaign = input.campaignId
      ? await options.resolveCampaign(organizationId, input.campaignId)
      : undefined;
    const base = await trackingBaseUrl(storage.organizations, organizationId, options.baseUrl);
    const switches = { opens: input.tracking?.opens ?? true, clicks: input.tracking?.clicks ?? true };
    const content = buildTrackedContent(input.htmlContent, options.trackingUrls, base, switches, operation);
    const record = {
      id: createId(),
      organizationId,
      campaignId: campaign?.id ?? null,
      trackingId: content.trackingId,
      subject: input.subject,
      metadata: input.metadata ? JSON.stringify(input.metadata) : null,
      trackOpens: switches.opens,
      trackClicks: switches.clicks,
      recipients: recipientRecords(input),
      links: content.links,
      tags: input.tags ?? [],
      createdAt: clock.now(),
    };
    return { campaign, content, record };
  }

  const inFlight = options.inFlight;
  const service: EmailService = {
    send: validatedMethod(
      sendEmailSchema,
      "emails.send",
      { leading: 1 },
      async (organizationId: string, input) => {
        const { content, record: requested } = await prepare(organizationId, "emails.send", input);
        const emailId = requested.id;
        // The suppression lookup (one query for every recipient) runs beside the sender's.
        const [sender, suppression] = await Promise.all([
          decideSender(
            storage.sendingDomains,
            organizationId,
            input.from,
            input.replyTo,
            options.platformDomain,
            options.openSecret,
          ),
          applySuppressionList(storage.suppressions, organizationId, input),
        ]);
        // Before anything is stored, and outside the provider's try: HTML too deep to read is the
        // client's 400, and a bug here must surface as one, never as "Email delivery failed".
        const text = input.text ?? (await htmlToTextInSlices(content.html));
        const senderFields = {
          origin: "send" as const,
          fromAddress: formatMailbox(input.from),
          sender: formatMailbox(sender.from),
          replyTo: sender.replyTo ? formatMailbox(sender.replyTo) : null,
        };
        const { kept, dropped } = suppression;
        if (kept.to.length === 0) {
          const refusal = allRecipientsSuppressed(dropped, emailId);
          await storage.emails.createSuppressed(
            { ...requested, ...senderFields, suppressedRecipients: dropped },
            refusal.message,
          );
          throw refusal;
        }
        // The record holds whom the message went to; the dropped ones are listed beside them.
        const record = { ...requested, recipients: recipientRecords(kept), suppressedRecipients: dropped };
        await storage.emails.create({ ...record, ...senderFields });

        let providerMessageId: string;
        try {
          ({ id: providerMessageId } = await options.mailProvider.send({
            from: sender.from,
            to: kept.to,
            cc: kept.cc,
            bcc: kept.bcc,
            replyTo: sender.replyTo,
            subject: input.subject,
            html: content.html,
            text,
            headers: { ...input.headers, "X-MailPulse-Tracking-Id": content.trackingId },
            attachments: input.attachments ?? [],
            dkim: sender.dkim,
          }));
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          await storage.emails.markFailed(organizationId, emailId, reason);
          // The caller learns only which email failed; the operator needs to whom, and why.
          const to = kept.to.map((recipient) => recipient.address);
          options.logger.error(
            `MailPulse: delivery of email ${emailId} to ${to.join(", ")} failed: ${reason}`,
            error,
            {
              emailId,
              to,
            },
          );
          // The id in the message: the only handle a caller has on the failed email (GET /api/emails/:id).
          throw new MailPulseError("DELIVERY_FAILED", `Email delivery failed (email ${emailId})`, {
            cause: error,
          });
        }

        const to = kept.to.map(formatMailbox);
        const sentAt = clock.now();
        await storage.emails.markSent(organizationId, emailId, {
          providerMessageId,
          sentAt,
          logSentEvent: true,
        });
        options.onSent?.(trackedEmailOf(record, sentAt), record.links);
        return {
          id: providerMessageId,
          emailId,
          emailTrackingId: content.trackingId,
          from: formatMailbox(sender.from),
          to,
          subject: input.subject,
          links: content.linkResponses,
          pixelUrl: content.pixelUrl,
          ...(dropped.length > 0 ? { suppressedRecipients: dropped } : {}),
        };
      },
    ),

    register: validatedMethod(
      registerEmailSchema,
      "emails.register",
      { leading: 1 },
      async (organizationId: string, input) => {
        const [{ content, record: requested }, { kept, dropped }] = await Promise.all([
          prepare(organizationId, "emails.register", input),
          applySuppressionList(storage.suppressions, organizationId, input),
        ]);
        const from = input.from ? formatMailbox(input.from) : "";
        const senderFields = { origin: "register" as const, fromAddress: from, sender: from, replyTo: null };
        if (kept.to.length === 0) {
          const refusal = allRecipientsSuppressed(dropped, requested.id);
          await storage.emails.createSuppressed(
            { ...requested, ...senderFields, suppressedRecipients: dropped },
            refusal.message,
          );
          throw refusal;
        }
        const record = { ...requested, recipients: recipientRecords(kept), suppressedRecipients: dropped };
        await storage.emails.create(
          { ...record, ...senderFields },
          // Registered emails are sent by the caller; no EMAIL_SENT (see docs/sending.md).
          { providerMessageId: null, sentAt: record.createdAt, logSentEvent: false },
        );
        options.onSent?.(trackedEmailOf(record, record.createdAt), record.links);
        return {
          id: record.id,
          emailTrackingId: content.trackingId,
          html: content.html,
          links: content.linkResponses,
          pixelUrl: content.pixelUrl,
          ...(dropped.length > 0 ? { suppressedRecipients: dropped } : {}),
        };
      },
    ),

    async get(organizationId, emailId) {
      const email = await storage.emails.get(organizationId, emailId);
      if (!email) throw new MailPulseError("NOT_FOUND", "Email not found");
      return toEmailDetail(email);
    },
  };
  if (!inFlight) return service;
  return {
    ...service,
    send: aroundValidated(service.send, (run) => inFlight.run(run)),
    register: aroundValidated(service.register, (run) => inFlight.run(run)),
  };
}

/** What the tracking endpoints will look up for a just-sent email. */
function trackedEmailOf(
  record: Pick<TrackedEmail, "id" | "organizationId" | "campaignId" | "trackingId" | "subject"> & {
    recipients: ReadonlyArray<{ kind: string; address: string }>;
  },
  sentAt: Date,
): TrackedEmail {
  return {
    id: record.id,
    organizationId: record.organizationId,
    campaignId: record.campaignId,
    trackingId: record.trackingId,
    status: "sent",
    sentAt,
    recipient: record.recipients.find((recipient) => recipient.kind === "to")?.address ?? "",
    subject: record.subject,
  };
}
