import type { ServiceDeps } from "./service-context.js";
import type { SuppressionService } from "./suppression-service.js";

/**
 * What comes back after a send, recorded against the email it is about: bounces (from the
 * inbound SMTP receiver, the SMTP provider's synchronous rejections, SES notifications),
 * complaints and unsubscribes. docs/deliverability.md gives the rules.
 *
 * Every method is idempotent per (email, recipient, kind): the same report delivered twice (an
 * MTA retrying after a crash before our 250) is recorded once.
 */
export interface DeliveryFeedbackService {
  /**
   * Records a bounce of one recipient: `hard` suppresses the address at once (reason
   * `hard_bounce`); `soft` counts toward the soft-bounce rule; `delayed` is kept for the operator
   * and is not a bounce. Emits `EMAIL_BOUNCED` (hard and soft). Resolves `false` when the email
   * is not found (of that organization) or the report was already recorded.
   */
  recordBounce(report: BounceReport): Promise<boolean>;
  /** Records a complaint (ARF `abuse`, an SES complaint): suppresses the address (reason `complaint`), emits `EMAIL_COMPLAINED`. */
  recordComplaint(report: ComplaintReport): Promise<boolean>;
  /** Records an unsubscribe: suppresses the address (reason `unsubscribe`), emits `CONTACT_UNSUBSCRIBED`. */
  recordUnsubscribe(report: UnsubscribeReport): Promise<boolean>;
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

/**
 * Builds the {@link DeliveryFeedbackService}.
 *
 * INTERIM (until the feedback log lands): suppresses as the rules say, but keeps no log, emits
 * no events and treats every soft bounce as nothing final. The signatures are final.
 */
export function createDeliveryFeedbackService(
  deps: ServiceDeps,
  collaborators: { suppressions: SuppressionService },
): DeliveryFeedbackService {
  const { storage } = deps;
  const known = async (target: FeedbackTarget) =>
    (await storage.emails.get(target.organizationId, target.emailId)) !== undefined;
  return {
    async recordBounce(report) {
      if (!(await known(report))) return false;
      if (report.bounceType !== "hard") return true;
      return collaborators.suppressions.suppress(report.organizationId, {
        address: report.recipient,
        reason: "hard_bounce",
        sourceEmailId: report.emailId,
        status: report.status,
        diagnostic: report.diagnostic,
      });
    },
    async recordComplaint(report) {
      if (!(await known(report))) return false;
      return collaborators.suppressions.suppress(report.organizationId, {
        address: report.recipient,
        reason: "complaint",
        sourceEmailId: report.emailId,
      });
    },
    async recordUnsubscribe(report) {
      if (!(await known(report))) return false;
      return collaborators.suppressions.suppress(report.organizationId, {
        address: report.recipient,
        reason: "unsubscribe",
        sourceEmailId: report.emailId,
      });
    },
  };
}
