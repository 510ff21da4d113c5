import { notFound } from "../errors.js";
import type { DailyFeedbackTotals, DailyTotals } from "../ports/storage.js";
import { utcDayToIsoDate } from "../util/utc-day.js";
import { toApiCampaign } from "./campaign-service.js";
import { parsePeriod } from "./period.js";
import { percentage } from "./rates.js";
import type { ServiceDeps } from "./service-context.js";
import { type CampaignStatsInput, campaignStatsSchema } from "./stats/campaign-stats-input.js";
import { feedbackFigures } from "./stats/feedback-stats.js";
import { rateTotals } from "./stats/rated-totals.js";
import type { CampaignPeriodStats, DailyActivity, GlobalStats } from "./stats/stats-answers.js";
import { parseInput } from "./validation/parse-input.js";

export type { CampaignPeriodStats, DailyActivity, GlobalStats };

/** How many URLs `topLinks` lists. */
export const periodTopLinkCount = 10;

/** Campaign period statistics and organization-wide statistics. */
export interface StatsService {
  /**
   * A campaign's statistics over `input.period` (default `30d`, see `parsePeriod`):
   * VALIDATION_FAILED for a bad period, NOT_FOUND for an unknown or foreign campaign (archived
   * ones are found).
   */
  campaign(organizationId: string, input: CampaignStatsInput): Promise<CampaignPeriodStats>;
  /** Totals over all campaigns (archived included) and standalone emails. */
  global(organizationId: string): Promise<GlobalStats>;
}

function zeroFilledDays(
  rows: DailyTotals[],
  feedbackRows: DailyFeedbackTotals[],
  firstDay: number,
  lastDay: number,
): DailyActivity[] {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const feedbackByDay = new Map(feedbackRows.map((row) => [row.day, row]));
  const days: DailyActivity[] = [];
  for (let day = firstDay; day <= lastDay; day++) {
    const row = byDay.get(day);
    const feedback = feedbackByDay.get(day);
    days.push({
      date: utcDayToIsoDate(day),
      opens: row?.opens ?? 0,
      clicks: row?.clicks ?? 0,
      emails: row?.emails ?? 0,
      humanOpens: row?.humanOpens ?? 0,
      humanClicks: row?.humanClicks ?? 0,
      hardBounces: feedback?.hardBounces ?? 0,
      softBounces: feedback?.softBounces ?? 0,
      complaints: feedback?.complaints ?? 0,
      unsubscribes: feedback?.unsubscribes ?? 0,
    });
  }
  return days;
}

/** Builds the {@link StatsService}. */
export function createStatsService(deps: ServiceDeps): StatsService {
  const { storage, clock } = deps;

  return {
    async campaign(organizationId, input) {
      const { campaignId, period } = parseInput(campaignStatsSchema, input, "stats.campaign");
      const range = parsePeriod(period, clock.now());
      const record = await storage.campaigns.get(organizationId, campaignId);
      if (!record) throw notFound("Campaign");
      const [emails, daily, topLinks, feedback, dailyFeedback] = await Promise.all([
        storage.stats.campaignPeriodEmails(organizationId, campaignId, range),
        storage.stats.campaignDailyTotals(organizationId, campaignId, range.firstDay, range.lastDay),
        storage.stats.campaignPeriodTopLinks(organizationId, campaignId, range, periodTopLinkCount),
        // Like the open rate: the feedback of the emails sent in the period, whenever it came.
        storage.deliveryFeedback.totals(organizationId, { campaignId, sentWithin: range }),
        storage.deliveryFeedback.dailyTotals(organizationId, campaignId, range.firstDay, range.lastDay),
      ]);
      // The period starts at a day boundary and ends at its last day's end (or now, which no
      // event is past), so the daily rollup counts exactly the period's events.
      const openAndClicks = zeroFilledDays(daily, dailyFeedback, range.firstDay, range.lastDay);
      const totalOpens = openAndClicks.reduce((sum, day) => sum + day.opens, 0);
      const totalClicks = openAndClicks.reduce((sum, day) => sum + day.clicks, 0);
      const humanOpens = openAndClicks.reduce((sum, day) => sum + day.humanOpens, 0);
      const humanClicks = openAndClicks.reduce((sum, day) => sum + day.humanClicks, 0);
      return {
        campaign: toApiCampaign(record),
        period: { start: range.start.toISOString(), end: range.end.toISOString() },
        stats: {
          totalEmails: emails.totalEmails,
          totalOpens,
          totalClicks,
          openRate: percentage(emails.openedEmails, emails.totalEmails),
          clickThroughRate: percentage(totalClicks, totalOpens),
          uniqueRecipients: emails.uniqueRecipients,
          noInteraction: emails.totalEmails - emails.openedEmails,
          ...feedbackFigures(feedback, emails.totalEmails),
          human: {
            totalOpens: humanOpens,
            totalClicks: humanClicks,
            openRate: percentage(emails.humanOpenedEmails, emails.totalEmails),
            clickThroughRate: percentage(humanClicks, humanOpens),
            noInteraction: emails.totalEmails - emails.humanOpenedEmails,
          },
        },
        openAndClicks,
        topLinks,
      };
    },
    async global(organizationId) {
      const [totals, feedback] = await Promise.all([
        storage.stats.organizationTotals(organizationId),
        storage.deliveryFeedback.totals(organizationId, {}),
      ]);
      return { ...rateTotals(totals), ...feedbackFigures(feedback, totals.totalEmails) };
    },
  };
}
