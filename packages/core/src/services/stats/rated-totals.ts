import type { CampaignTotals } from "../../ports/storage.js";
import { percentage } from "../rates.js";
import type { FeedbackFigures } from "./feedback-stats.js";
import type { GlobalStats } from "./stats-answers.js";

/**
 * Rates `totals` of a set of sent emails: the shape of `GET /api/stats`, which a campaign's
 * detail reuses for its `stats` (adding `human.noInteraction`). Rates are emails opened (an open
 * or a click) or clicked / emails x 100, over human hits too (still divided by all emails); every
 * rate is 0 when there are no emails.
 */
export function rateTotals(totals: CampaignTotals): Omit<GlobalStats, keyof FeedbackFigures> {
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
