/**
 * Expected figures of histories whose hits are all a reader's (verdict "no machine signal"): their
 * human figures equal the raw ones. The contracts whose histories predate classification use these,
 * so each expectation still states its raw numbers once; the human-stats contract has machine hits.
 */
import type { CampaignTotals, ContactRecord, DailyTotals } from "@mailpulse/core/storage";

/** Campaign or organization totals of readers' hits only. */
export function readerTotals(totals: Omit<CampaignTotals, "human">): CampaignTotals {
  const { totalOpens, totalClicks, openedEmails, clickedEmails } = totals;
  return { ...totals, human: { totalOpens, totalClicks, openedEmails, clickedEmails } };
}

/** Daily rollup rows of readers' hits only. */
export function readerDays(
  days: ReadonlyArray<Omit<DailyTotals, "humanOpens" | "humanClicks">>,
): DailyTotals[] {
  return days.map((day) => ({ ...day, humanOpens: day.opens, humanClicks: day.clicks }));
}

/** A contact rollup of readers' hits only. */
export function readerContact(contact: Omit<ContactRecord, "humanOpens" | "humanClicks">): ContactRecord {
  return { ...contact, humanOpens: contact.totalOpens, humanClicks: contact.totalClicks };
}

/** Statistics figures of a history without bounces, complaints nor unsubscribes. */
export const noFeedback = {
  hardBounces: 0,
  softBounces: 0,
  complaints: 0,
  unsubscribes: 0,
  hardBounceRate: 0,
  softBounceRate: 0,
  complaintRate: 0,
  unsubscribeRate: 0,
};

/** A day of the series without bounces, complaints nor unsubscribes. */
export const noFeedbackDay = { hardBounces: 0, softBounces: 0, complaints: 0, unsubscribes: 0 };

/** A contact detail's figures without bounces, complaints nor unsubscribes, and not suppressed. */
export const noContactFeedback = { ...noFeedbackDay, suppression: null };
