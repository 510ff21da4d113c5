import type { Storage } from "../../ports/storage.js";
import type {
  RecipientOutcome,
  ReturnedMailAttribution,
  ReturnedMailVerdict,
} from "../../returned-mail/returned-mail-verdict.js";
import { normalizeAddress } from "../../util/normalize-address.js";
import type { DeliveryFeedbackService } from "../delivery-feedback-service.js";
import { findTrackedEmail } from "../feedback/recipient-lookup.js";
import type { FeedbackRecipient } from "./inbound-recipient.js";

/**
 * What a classified inbound message changes: bounces and complaints are recorded against the
 * sent email and recipient they are about; auto-replies, read receipts, people's replies and
 * malformed messages change nothing. The VERP return path the message was sent to is
 * authoritative; without one, the classifier's attribution (the embedded original's
 * `X-MailPulse-Tracking-Id`, else its Message-ID) names the email, and only recipients of that
 * email are recorded. docs/deliverability.md ("The inbound receiver").
 */

/** What {@link recordReturnedMail} uses. */
export interface RecordReturnedMailDeps {
  storage: Pick<Storage, "tracking" | "emails">;
  feedback: Pick<DeliveryFeedbackService, "recordBounce" | "recordComplaint">;
}

/** Where the message came in. */
export interface ReturnedMailContext {
  /** Recipients named by the `bounces+<token>` addresses it was sent to. */
  returnPathTargets: readonly FeedbackRecipient[];
  /**
   * The organization whose `send.<domain>` it came to, or null (the platform's domain): a report
   * attributed by its quoted headers only counts in this organization then.
   */
  domainOrganizationId: string | null;
  occurredAt: Date;
}

/** What was recorded, for the inbound log. */
export interface RecordedReturnedMail {
  organizationId: string | null;
  emailId: string | null;
  /** One sentence per thing recorded (or why nothing was). */
  actions: string[];
}

type FeedbackBounceType = "hard" | "soft" | "delayed";

/** Records what `verdict` reports. Rejects when storage fails (the receiver answers 451). */
export async function recordReturnedMail(
  deps: RecordReturnedMailDeps,
  verdict: ReturnedMailVerdict,
  context: ReturnedMailContext,
): Promise<RecordedReturnedMail> {
  if (verdict.kind !== "bounce" && verdict.kind !== "complaint") {
    return { organizationId: null, emailId: null, actions: [] };
  }
  const targets =
    context.returnPathTargets.length > 0
      ? context.returnPathTargets.map((target): Target => ({ ...target }))
      : await attributedTargets(deps, verdict.attribution, context.domainOrganizationId, verdict);
  if (targets.length === 0) {
    return {
      organizationId: context.domainOrganizationId,
      emailId: null,
      actions: [`The ${verdict.kind} could not be tied to an email sent from here; nothing was recorded.`],
    };
  }
  const actions: string[] = [];
  for (const target of targets) {
    const base = {
      organizationId: target.organizationId,
      emailId: target.emailId,
      recipient: target.recipient,
      occurredAt: context.occurredAt,
    };
    if (verdict.kind === "complaint") {
      await deps.feedback.recordComplaint({
        ...base,
        feedbackType: verdict.feedbackType,
        source: "inbound-smtp",
      });
      actions.push(`Complaint (${verdict.feedbackType}) of ${target.recipient} recorded.`);
      continue;
    }
    const outcome = target.outcome ?? worstOutcome(outcomesFor(verdict.recipients, target.recipient));
    const bounceType = outcome && feedbackBounceType(outcome);
    if (!outcome || !bounceType) {
      actions.push(`No failure or delay reported for ${target.recipient}; nothing recorded.`);
      continue;
    }
    await deps.feedback.recordBounce({
      ...base,
      bounceType,
      status: outcome.status,
      diagnostic: outcome.diagnostic,
      source: "inbound-smtp",
    });
    actions.push(
      `${bounceType === "delayed" ? "Delay" : `${bounceType === "hard" ? "Hard" : "Soft"} bounce`} of ${target.recipient}${outcome.status ? ` (${outcome.status})` : ""} recorded.`,
    );
  }
  const first = targets[0]!;
  return { organizationId: first.organizationId, emailId: first.emailId, actions };
}

interface Target extends FeedbackRecipient {
  /** The bounce outcome already matched to the recipient (attributed bounces). */
  outcome?: RecipientOutcome;
}

/** The recipients of the email the attribution names that the report is about. */
async function attributedTargets(
  deps: RecordReturnedMailDeps,
  attribution: ReturnedMailAttribution,
  domainOrganizationId: string | null,
  verdict: Extract<ReturnedMailVerdict, { kind: "bounce" | "complaint" }>,
): Promise<Target[]> {
  const found = await findAttributedEmail(deps, attribution);
  if (!found) return [];
  if (domainOrganizationId !== null && found.organizationId !== domainOrganizationId) return [];
  const email = await deps.storage.emails.get(found.organizationId, found.emailId);
  if (!email) return [];
  const addresses = email.recipients.map((recipient) => recipient.address);
  const only = addresses.length === 1 ? addresses[0]! : null;
  const at = (address: string) => ({
    organizationId: email.organizationId,
    emailId: email.id,
    recipient: address,
  });
  if (verdict.kind === "complaint") {
    const named = verdict.recipient ? normalizeAddress(verdict.recipient) : null;
    const recipient = named && addresses.includes(named) ? named : named === null ? only : null;
    return recipient ? [at(recipient)] : [];
  }
  const targets: Target[] = [];
  for (const outcome of verdict.recipients) {
    const named = [outcome.recipient, outcome.originalRecipient]
      .filter((value): value is string => value !== null)
      .map(normalizeAddress);
    const recipient =
      named.find((address) => addresses.includes(address)) ?? (named.length === 0 ? only : null);
    if (recipient && !targets.some((target) => target.recipient === recipient)) {
      targets.push({ ...at(recipient), outcome });
    }
  }
  return targets;
}

async function findAttributedEmail(
  deps: RecordReturnedMailDeps,
  attribution: ReturnedMailAttribution,
): Promise<{ organizationId: string; emailId: string } | undefined> {
  if (attribution.trackingId) {
    const tracked = await findTrackedEmail(deps.storage, attribution.trackingId);
    if (tracked) return tracked;
  }
  if (attribution.messageId) {
    // Stored as the provider answered it: without angle brackets.
    return deps.storage.emails.findByProviderMessageId(attribution.messageId.replace(/^<|>$/g, ""));
  }
  return undefined;
}

/** The outcomes naming `recipient`; all of them when none does (the VERP address said whose mail it was). */
function outcomesFor(outcomes: readonly RecipientOutcome[], recipient: string): RecipientOutcome[] {
  const matching = outcomes.filter((outcome) =>
    [outcome.recipient, outcome.originalRecipient].some(
      (address) => address !== null && normalizeAddress(address) === recipient,
    ),
  );
  return matching.length > 0 ? matching : [...outcomes];
}

const rank = { hard: 3, soft: 2, delayed: 1 } as const;

/** The most final outcome: a hard bounce over a soft one over a delay over nothing. */
function worstOutcome(outcomes: readonly RecipientOutcome[]): RecipientOutcome | undefined {
  let worst: RecipientOutcome | undefined;
  for (const outcome of outcomes) {
    const type = feedbackBounceType(outcome);
    const current = worst && feedbackBounceType(worst);
    if (!worst || (type ? rank[type] : 0) > (current ? rank[current] : 0)) worst = outcome;
  }
  return worst;
}

/** How an outcome is recorded: `delayed` for a delay, nothing for a success. */
function feedbackBounceType(outcome: RecipientOutcome): FeedbackBounceType | undefined {
  if (outcome.bounceType === "hard" || outcome.bounceType === "soft") return outcome.bounceType;
  return outcome.action === "delayed" ? "delayed" : undefined;
}
