import { MailPulseError, notFound } from "../errors.js";
import type { EmailRecord, NewDeliveryFeedback } from "../ports/storage.js";
import { normalizeAddress } from "../util/normalize-address.js";
import { sanitizeText } from "../util/sanitize-text.js";
import { unsubscribeRecipientSchema } from "./feedback/unsubscribe-input.js";
import type { ServiceDeps } from "./service-context.js";
import { type SuppressionService, toApiSuppression } from "./suppression-service.js";
import type { Suppression } from "./suppressions/suppression-answers.js";
import { maxDiagnosticLength } from "./suppressions/suppression-input.js";
import { type ValidatedMethod, validatedMethod } from "./validation/validated-method.js";

/**
 * What comes back after a send, recorded against the email it is about: bounces (from the
 * inbound SMTP receiver, the SMTP provider's synchronous rejections, SES notifications),
 * complaints and unsubscribes. docs/deliverability.md gives the rules.
 *
 * Every method is idempotent per (email, recipient, kind): the same report delivered twice (an
 * MTA retrying after a crash before our 250) is recorded once, with one event. The suppression a
 * report causes is applied again on a repeat (it is idempotent too), so a crash between recording
 * and suppressing is repaired by the sender's retry. Nothing here ever lifts a suppression: an
 * address that later receives mail successfully stays suppressed until removed by hand.
 */
export interface DeliveryFeedbackService {
  /**
   * Records a bounce of one recipient: `hard` suppresses the address at once (reason
   * `hard_bounce`); `soft` counts toward the soft-bounce rule (suppressed, reason `hard_bounce`,
   * at `softBounceLimit` soft-bounced emails within `softBounceWindowDays`); `delayed` is kept for
   * the operator and is not a bounce (no event, not counted). Emits `EMAIL_BOUNCED` (hard and
   * soft). When every `to` recipient of a sent email has hard-bounced, the email becomes
   * `bounced`. Resolves `false` (nothing recorded) when the email is not found (of that
   * organization), the recipient is not one of its recipients, or the report was already recorded.
   */
  recordBounce(report: BounceReport): Promise<boolean>;
  /**
   * Records a complaint (ARF `abuse`, an SES complaint): suppresses the address (reason
   * `complaint`), emits `EMAIL_COMPLAINED`. A `not-spam` report is not a complaint (the recipient
   * says the opposite): nothing is recorded and it resolves `false`.
   */
  recordComplaint(report: ComplaintReport): Promise<boolean>;
  /** Records an unsubscribe: suppresses the address (reason `unsubscribe`), emits `CONTACT_UNSUBSCRIBED`. */
  recordUnsubscribe(report: UnsubscribeReport): Promise<boolean>;
  /**
   * Unsubscribes a recipient of a sent email named by its tracking id (`recipient`, default the
   * email's first `to`), as `POST /api/emails/:emailTrackingId/unsubscribe` does (source `api`),
   * and answers the address's suppression entry (its first reason, if it was suppressed before).
   * NOT_FOUND for an unknown email (or one of another organization), NOT_A_RECIPIENT when
   * `recipient` is not one of its recipients.
   */
  unsubscribe: ValidatedMethod<
    [organizationId: string, emailTrackingId: string],
    typeof unsubscribeRecipientSchema,
    Suppression,
    true
  >;
}

/** Which sent email and which of its recipients a report is about. */
export interface FeedbackTarget {
  organizationId: string;
  /** The email's internal id (`EmailRecord.id`). */
  emailId: string;
  /** The recipient's address (normalised by the service). */
  recipient: string;
  /** When it happened; default the clock's now. */
  occurredAt?: Date;
}

/** Where a bounce was learnt. */
export type BounceSource = "inbound-smtp" | "send-time" | "sns";

/** A bounce of one recipient. */
export interface BounceReport extends FeedbackTarget {
  bounceType: "hard" | "soft" | "delayed";
  /** Enhanced status code (`5.1.1`), or null. */
  status: string | null;
  /** The remote server's words, or null; bounded by the service. */
  diagnostic: string | null;
  source: BounceSource;
}

/** A complaint of one recipient. */
export interface ComplaintReport extends FeedbackTarget {
  /** ARF `Feedback-Type`, lowercased (`abuse`, ...), or the provider's (SES `complaintFeedbackType`). */
  feedbackType: string;
  source: "inbound-smtp" | "sns";
}

/** Where an unsubscribe came from. */
export type UnsubscribeSource = "one-click" | "page" | "mailto" | "api";

/** An unsubscribe of one recipient. */
export interface UnsubscribeReport extends FeedbackTarget {
  source: UnsubscribeSource;
}

/** The soft-bounce rule (`MailPulseOptions.deliverability`). */
export interface SoftBounceRule {
  /** Soft-bounced emails of one address within the window that suppress it. Default 3. */
  limit: number;
  /** The window, in days, ending at the latest soft bounce. Default 7. */
  windowDays: number;
}

/** The soft-bounce rule's defaults: listmonk's and Postmark's figures (docs/deliverability.md). */
export const defaultSoftBounceRule: SoftBounceRule = { limit: 3, windowDays: 7 };

const dayMs = 24 * 60 * 60 * 1000;

/** What a remote server wrote, kept as data every storage accepts, and bounded (as suppression-service does). */
function bounded(text: string | null, max: number): string | null {
  return text == null ? null : sanitizeText(text).slice(0, max);
}

/** Builds the {@link DeliveryFeedbackService}. */
export function createDeliveryFeedbackService(
  deps: ServiceDeps,
  collaborators: { suppressions: SuppressionService; softBounceRule?: SoftBounceRule },
): DeliveryFeedbackService {
  const { storage, clock } = deps;
  const { suppressions } = collaborators;
  const rule = collaborators.softBounceRule ?? defaultSoftBounceRule;

  /** The email and the normalised recipient, when the recipient is one of the email's. */
  async function target(
    report: FeedbackTarget,
  ): Promise<{ email: EmailRecord; recipient: string } | undefined> {
    const email = await storage.emails.get(report.organizationId, report.emailId);
    if (!email) return undefined;
    const recipient = normalizeAddress(report.recipient);
    return email.recipients.some((candidate) => candidate.address === recipient)
      ? { email, recipient }
      : undefined;
  }

  /** Records the report; true when it was new. */
  async function record(
    report: FeedbackTarget & { source: string },
    recipient: string,
    fields: Pick<NewDeliveryFeedback, "kind" | "bounceType" | "status" | "diagnostic" | "feedbackType">,
  ): Promise<boolean> {
    const outcome = await storage.deliveryFeedback.record({
      organizationId: report.organizationId,
      emailId: report.emailId,
      recipient,
      source: report.source,
      occurredAt: report.occurredAt ?? clock.now(),
      ...fields,
    });
    return outcome?.recorded ?? false;
  }

  async function recordUnsubscribe(report: UnsubscribeReport): Promise<boolean> {
    const found = await target(report);
    if (!found) return false;
    const recorded = await record(report, found.recipient, {
      kind: "unsubscribe",
      bounceType: null,
      status: null,
      diagnostic: null,
      feedbackType: null,
    });
    await suppressions.suppress(report.organizationId, {
      address: found.recipient,
      reason: "unsubscribe",
      sourceEmailId: report.emailId,
    });
    return recorded;
  }

  return {
    async recordBounce(report) {
      const found = await target(report);
      if (!found) return false;
      const status = bounded(report.status, 32);
      const diagnostic = bounded(report.diagnostic, maxDiagnosticLength);
      const recorded = await record(report, found.recipient, {
        kind: report.bounceType === "delayed" ? "delay" : "bounce",
        bounceType: report.bounceType === "delayed" ? null : report.bounceType,
        status,
        diagnostic,
        feedbackType: null,
      });
      const suppress = (why: string | null) =>
        suppressions.suppress(report.organizationId, {
          address: found.recipient,
          reason: "hard_bounce",
          sourceEmailId: report.emailId,
          status,
          diagnostic: why,
        });
      if (report.bounceType === "hard") {
        await suppress(diagnostic);
      } else if (report.bounceType === "soft") {
        const at = report.occurredAt ?? clock.now();
        const since = new Date(at.getTime() - rule.windowDays * dayMs);
        const count = await storage.deliveryFeedback.countSoftBounces(
          report.organizationId,
          found.recipient,
          since,
        );
        if (count >= rule.limit) {
          const why = `Soft-bounce rule: ${count} soft bounces within ${rule.windowDays} days (limit ${rule.limit})`;
          await suppress(bounded(diagnostic ? `${why}; last: ${diagnostic}` : why, maxDiagnosticLength));
        }
      }
      return recorded;
    },

    async recordComplaint(report) {
      const feedbackType = bounded(report.feedbackType.trim().toLowerCase(), 64) || "abuse";
      // RFC 5965 `not-spam`: the recipient moved the message out of spam. Not a complaint.
      if (feedbackType === "not-spam") return false;
      const found = await target(report);
      if (!found) return false;
      const recorded = await record(report, found.recipient, {
        kind: "complaint",
        bounceType: null,
        status: null,
        diagnostic: null,
        feedbackType,
      });
      await suppressions.suppress(report.organizationId, {
        address: found.recipient,
        reason: "complaint",
        sourceEmailId: report.emailId,
      });
      return recorded;
    },

    recordUnsubscribe,

    unsubscribe: validatedMethod(
      unsubscribeRecipientSchema,
      "deliveryFeedback.unsubscribe",
      { leading: 2, whenOmitted: {} },
      async (organizationId: string, emailTrackingId: string, input) => {
        const [tracked] = await storage.tracking.findEmails([emailTrackingId]);
        const email =
          tracked && tracked.organizationId === organizationId
            ? await storage.emails.get(organizationId, tracked.id)
            : undefined;
        if (!email) throw notFound("Email");
        const recipient =
          input.recipient ?? email.recipients.find((candidate) => candidate.kind === "to")?.address;
        if (!recipient || !email.recipients.some((candidate) => candidate.address === recipient)) {
          throw new MailPulseError(
            "NOT_A_RECIPIENT",
            `${JSON.stringify(recipient ?? "")} is not a recipient of this email`,
          );
        }
        await recordUnsubscribe({ organizationId, emailId: email.id, recipient, source: "api" });
        const [entry] = await storage.suppressions.findByAddresses(organizationId, [recipient]);
        // Suppressed just above; only a concurrent removal could take it away again.
        if (!entry)
          throw new MailPulseError("CONFLICT", `${recipient} was unsuppressed meanwhile; try again`);
        return toApiSuppression(entry);
      },
    ),
  };
}
