import type { CampaignTotals } from "../../ports/storage.js";
import { percentage } from "../rates.js";

/**
 * Totals of a set of sent emails with their open and click rates, overall and over human hits
 * only: the `stats` of a campaign's detail (which adds `human.noInteraction`) and `GET /api/stats`.
 */
export interface RatedTotals {
  totalEmails: number;
  totalOpens: number;
  totalClicks: number;
  /** Emails opened (an open or a click) / emails x 100. */
  openRate: number;
  /** Emails with a click / emails x 100. */
  clickRate: number;
  /** The same over human hits only (docs/measurement.md); the rates still divide by all emails. */
  human: { totalOpens: number; totalClicks: number; openRate: number; clickRate: number };
}

/** Rates `totals` (see {@link RatedTotals}); every rate is 0 when there are no emails. */
export function rateTotals(totals: CampaignTotals): RatedTotals {
  return {
    totalEmails: totals.totalEmails,
    totalOpens: totals.totalOpens,
    totalClicks: totals.totalClicks,
    openRate: percentage(totals.openedEmails, totals.totalEmails),
    clickRate: percentage(totals.clickedEmails, totals.totalEmails),
    human: {
      totalOpens: totals.human.totalOpens,
      totalClicks: totals.human.totalClicks,
      openRate: percentage(totals.human.openedEmails, totals.totalEmails),
      clickRate: percentage(totals.human.clickedEmails, totals.totalEmails),
    },
  };
}
