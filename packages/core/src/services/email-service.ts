import { MailPulseError } from "../errors.js";
import { htmlToTextInSlices } from "../html/html-to-text.js";
import type { Logger } from "../logger.js";
import { type MailProvider, RecipientsRejectedError, type SendResult } from "../ports/mail-provider.js";
import type {
  EmailTagRecord,
  LinkRecord,
  SuppressedRecipientRecord,
  TrackedEmail,
} from "../ports/storage.js";
import { createSecretToken } from "../util/ids.js";
import type { InFlight } from "../util/in-flight.js";
import { findCampaign, type ResolveCampaign } from "./campaigns/resolve-campaign.js";
import type { DeliveryFeedbackService } from "./delivery-feedback-service.js";
import type { SigningKeySource } from "./feedback/signing-key.js";
import { formatMailbox } from "./sending/addresses.js";
import { buildTrackedContent, recipientRecords } from "./sending/build-tracked-email.js";
import type { EmailPage, RegisterEmailResult, SendEmailResult } from "./sending/email-answers.js";
import { encodeEmailCursor } from "./sending/email-cursor.js";
import { type EmailDetail, toEmailDetail } from "./sending/email-detail.js";
import { emailListSchema } from "./sending/email-list-input.js";
import { returnPathEnvelopes } from "./sending/return-path.js";
import { registerEmailSchema, sendEmailSchema } from "./sending/send-input.js";
import { recordSendTimeRejections, toRejectedRecipient } from "./sending/send-time-rejections.js";
import { decideSender, type FromAddressPolicy } from "./sending/sender-rule.js";
import {
  allRecipientsSuppressed,
  applySuppressionList,
  type RecipientLists,
} from "./sending/suppression-check.js";
import { trackingBaseUrl } from "./sending/tracking-base-url.js";
import type { TrackingUrls } from "./sending/tracking-urls.js";
import {
  fillUnsubscribePlaceholderInHtml,
  fillUnsubscribePlaceholderInText,
  hasUnsubscribePlaceholder,
  type UnsubscribeUrlOf,
  unsubscribeHeaders,
  unsubscribeLinkOf,
} from "./sending/unsubscribe-link.js";
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
  /**
   * A page of the organization's emails, newest first, each as {@link get} answers it; filtered
   * by campaign, status, `to` recipient and creation time, paged by `after`. VALIDATION_FAILED
   * for a bad query (an `after` MailPulse did not issue included).
   */
  list: ValidatedMethod<[organizationId: string], typeof emailListSchema, EmailPage, true>;
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
  /** Builds the one-click unsubscribe URL of a token from the unsubscribe route's path (`createUnsubscribeUrl`). */
  unsubscribeUrl: UnsubscribeUrlOf;
  /** Signs return paths and unsubscribe links (`mailpulse.signingKey`); resolved once, not per send. */
  signingKey: SigningKeySource;
  /** Where send-time rejections are recorded, as bounces of `source: "send-time"`. */
  deliveryFeedback: Pick<DeliveryFeedbackService, "recordBounce">;
  platformDomain: string;
  /** Which `From` addresses go out as given (`sending.fromAddresses`). Default `"rewrite-unverified"`. */
  fromAddresses?: FromAddressPolicy;
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

  /** The content and the email record to store (without its sender fields, which only sending decides). */
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
    },
    kept: RecipientLists,
    dropped: SuppressedRecipientRecord[],
  ) {
    const campaign = input.campaignId
      ? await options.resolveCampaign(organizationId, input.campaignId)
      : undefined;
    const base = await trackingBaseUrl(storage.organizations, organizationId, options.baseUrl);
    const switches = { opens: input.tracking?.opens ?? true, clicks: input.tracking?.clicks ?? true };
    const content = await buildTrackedContent(
      input.htmlContent,
      options.trackingUrls,
      base,
      switches,
      operation,
    );
    const record = {
      id: createId(),
      organizationId,
      campaignId: campaign?.id ?? null,
      trackingId: content.trackingId,
      subject: input.subject,
      metadata: input.metadata ? JSON.stringify(input.metadata) : null,
      trackOpens: switches.opens,
      trackClicks: switches.clicks,
      // The record holds whom the message went to; the dropped ones are listed beside them.
      recipients: recipientRecords(kept),
      suppressedRecipients: dropped,
      links: content.links,
      tags: input.tags ?? [],
      createdAt: clock.now(),
    };
    return { content, record };
  }

  /**
   * Keeps the email of a message whose every `to` is suppressed, as `suppressed`, and returns the
   * 422 to throw. Nothing is built and no campaign is created for it: it joins its campaign only
   * when that campaign already exists (and is not archived).
   */
  async function refuseSuppressed(
    organizationId: string,
    input: RecipientLists & {
      campaignId?: string;
      subject: string;
      metadata?: Record<string, unknown>;
      tags?: EmailTagRecord[];
      tracking?: { opens?: boolean; clicks?: boolean };
    },
    senderFields: {
      origin: "send" | "register";
      fromAddress: string;
      sender: string;
      replyTo: string | null;
    },
    dropped: SuppressedRecipientRecord[],
  ): Promise<MailPulseError> {
    const campaign = input.campaignId
      ? await findCampaign(storage.campaigns, organizationId, input.campaignId)
      : undefined;
    const emailId = createId();
    const refusal = allRecipientsSuppressed(dropped, emailId);
    await storage.emails.createSuppressed(
      {
        id: emailId,
        organizationId,
        campaignId: campaign && !campaign.archivedAt ? campaign.id : null,
        trackingId: createSecretToken(16),
        subject: input.subject,
        metadata: input.metadata ? JSON.stringify(input.metadata) : null,
        trackOpens: input.tracking?.opens ?? true,
        trackClicks: input.tracking?.clicks ?? true,
        recipients: recipientRecords(input),
        suppressedRecipients: dropped,
        links: [],
        tags: input.tags ?? [],
        createdAt: clock.now(),
        ...senderFields,
      },
      refusal.message,
    );
    return refusal;
  }

  const inFlight = options.inFlight;
  const service: EmailService = {
    send: validatedMethod(
      sendEmailSchema,
      "emails.send",
      { leading: 1 },
      async (organizationId: string, input) => {
        // The suppression list first, before anything is created or built: a send that goes to
        // nobody creates no campaign and rewrites no HTML. The sender's lookup (a read) and the
        // signing key (resolved once per process) run beside it.
        const [suppression, sender, key] = await Promise.all([
          applySuppressionList(storage.suppressions, organizationId, input),
          decideSender(
            storage.sendingDomains,
            organizationId,
            input.from,
            input.replyTo,
            options.platformDomain,
            options.openSecret,
            options.fromAddresses,
          ),
          options.signingKey.key(),
        ]);
        const senderFields = {
          origin: "send" as const,
          fromAddress: formatMailbox(input.from),
          sender: formatMailbox(sender.from),
          replyTo: sender.replyTo ? formatMailbox(sender.replyTo) : null,
        };
        const { kept, dropped } = suppression;
        if (kept.to.length === 0) throw await refuseSuppressed(organizationId, input, senderFields, dropped);

        const { content, record } = await prepare(organizationId, "emails.send", input, kept, dropped);
        const emailId = record.id;
        const placeholder =
          hasUnsubscribePlaceholder(input.htmlContent) || hasUnsubscribePlaceholder(input.text);
        const unsubscribe =
          (input.unsubscribe ?? (input.campaignId !== undefined || placeholder))
            ? unsubscribeLinkOf(
                content.trackingId,
                key,
                options.unsubscribeUrl,
                options.baseUrl,
                sender.returnPathDomain,
              )
            : undefined;
        const html = unsubscribe
          ? fillUnsubscribePlaceholderInHtml(content.html, unsubscribe.url)
          : content.html;
        // Before anything is stored, and outside the provider's try: HTML too deep to read is the
        // client's 400, and a bug here must surface as one, never as "Email delivery failed".
        const text =
          input.text === undefined
            ? await htmlToTextInSlices(html)
            : unsubscribe
              ? fillUnsubscribePlaceholderInText(input.text, unsubscribe.url)
              : input.text;
        await storage.emails.create({ ...record, ...senderFields });

        let result: SendResult;
        try {
          result = await options.mailProvider.send({
            from: sender.from,
            to: kept.to,
            cc: kept.cc,
            bcc: kept.bcc,
            replyTo: sender.replyTo,
            subject: input.subject,
            html,
            text,
            headers: {
              ...input.headers,
              ...(unsubscribe ? unsubscribeHeaders(unsubscribe, input.headers) : {}),
              "X-MailPulse-Tracking-Id": content.trackingId,
            },
            attachments: input.attachments ?? [],
            dkim: sender.dkim,
            envelopes: returnPathEnvelopes(kept, content.trackingId, key, sender.returnPathDomain),
          });
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          await storage.emails.markFailed(organizationId, emailId, reason);
          if (error instanceof RecipientsRejectedError) {
            await recordSendTimeRejections(options, { organizationId, emailId }, error.rejected);
          }
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

        const providerMessageId = result.id;
        const sentAt = clock.now();
        await storage.emails.markSent(organizationId, emailId, {
          providerMessageId,
          sentAt,
          logSentEvent: true,
        });
        options.onSent?.(trackedEmailOf(record, sentAt), record.links);
        const rejected = result.rejected ?? [];
        await recordSendTimeRejections(options, { organizationId, emailId }, rejected);
        if (result.undelivered?.length) {
          const lines = result.undelivered.map(({ address, reason }) => `${address}: ${reason}`);
          options.logger.error(
            `MailPulse: email ${emailId} was sent, but not delivered to ${lines.join("; ")}`,
            undefined,
            { emailId },
          );
        }
        return {
          id: providerMessageId,
          emailId,
          emailTrackingId: content.trackingId,
          from: formatMailbox(sender.from),
          to: kept.to.map(formatMailbox),
          subject: input.subject,
          links: content.linkResponses,
          pixelUrl: content.pixelUrl,
          ...(dropped.length > 0 ? { suppressedRecipients: dropped } : {}),
          ...(rejected.length > 0 ? { rejectedRecipients: rejected.map(toRejectedRecipient) } : {}),
        };
      },
    ),

    register: validatedMethod(
      registerEmailSchema,
      "emails.register",
      { leading: 1 },
      async (organizationId: string, input) => {
        // The suppression list first: a registration that names nobody builds nothing.
        const { kept, dropped } = await applySuppressionList(storage.suppressions, organizationId, input);
        const from = input.from ? formatMailbox(input.from) : "";
        const senderFields = { origin: "register" as const, fromAddress: from, sender: from, replyTo: null };
        if (kept.to.length === 0) throw await refuseSuppressed(organizationId, input, senderFields, dropped);
        const { content, record } = await prepare(organizationId, "emails.register", input, kept, dropped);
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

    list: validatedMethod(
      emailListSchema,
      "emails.list",
      { leading: 1, whenOmitted: {} },
      async (organizationId: string, input) => {
        const records = await storage.emails.page(organizationId, input);
        const last = records.at(-1);
        return {
          data: records.map(toEmailDetail),
          nextCursor: last && records.length === input.limit ? encodeEmailCursor(last) : null,
        };
      },
    ),
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
