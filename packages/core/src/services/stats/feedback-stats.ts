import { z } from "zod";
import type { FeedbackTotals } from "../../ports/storage.js";
import { percentage } from "../rates.js";

/**
 * The delivery feedback counts of a statistics answer (docs/statistics.md): sent emails with a
 * hard bounce, a soft bounce, a complaint, an unsubscribe. Each email counts once per kind.
 */
export const feedbackCountFields = {
  hardBounces: z.int().min(0).describe("Sent emails with a hard bounce (docs/deliverability.md)."),
  softBounces: z
    .int()
    .min(0)
    .describe("Sent emails with a soft bounce and no hard one; delays are not bounces."),
  complaints: z
    .int()
    .min(0)
    .describe("Sent emails a recipient complained about (`not-spam` reports excluded)."),
  unsubscribes: z.int().min(0).describe("Sent emails a recipient unsubscribed from."),
};

/** The rates beside {@link feedbackCountFields}: each over the same sent emails, x 100, two decimals. */
export const feedbackRateFields = {
  hardBounceRate: z.number().min(0).max(100).describe("hardBounces / emails x 100."),
  softBounceRate: z.number().min(0).max(100).describe("softBounces / emails x 100."),
  complaintRate: z.number().min(0).max(100).describe("complaints / emails x 100."),
  unsubscribeRate: z.number().min(0).max(100).describe("unsubscribes / emails x 100."),
};

/** Counts and rates of a statistics answer. */
export interface FeedbackFigures extends FeedbackTotals {
  hardBounceRate: number;
  softBounceRate: number;
  complaintRate: number;
  unsubscribeRate: number;
}

/** The counts of `totals` with their rates over `sentEmails` (0 when none was sent). */
export function feedbackFigures(totals: FeedbackTotals, sentEmails: number): FeedbackFigures {
  return {
    hardBounces: totals.hardBounces,
    softBounces: totals.softBounces,
    complaints: totals.complaints,
    unsubscribes: totals.unsubscribes,
    hardBounceRate: percentage(totals.hardBounces, sentEmails),
    softBounceRate: percentage(totals.softBounces, sentEmails),
    complaintRate: percentage(totals.complaints, sentEmails),
    unsubscribeRate: percentage(totals.unsubscribes, sentEmails),
  };
}
