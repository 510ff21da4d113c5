import { z } from "zod";
import { campaignSchema, linkClicksSchema } from "../campaigns/campaign-answers.js";
import { dateTime } from "../validation/answer-fields.js";
import { feedbackCountFields, feedbackRateFields } from "./feedback-stats.js";

/** `DailyActivity` in the OpenAPI document. */
export const dailyActivitySchema = z
  .strictObject({
    date: z.string().meta({ format: "date" }).describe("`YYYY-MM-DD` (UTC)."),
    opens: z.int().min(0).describe("Open events that day."),
    clicks: z.int().min(0).describe("Click events that day."),
    emails: z.int().min(0).describe("Emails sent that day."),
    humanOpens: z.int().min(0).describe("Open events that day judged human (docs/measurement.md)."),
    humanClicks: z.int().min(0).describe("Click events that day judged human."),
    hardBounces: z.int().min(0).describe("Emails hard-bounced that day (by the report's time)."),
    softBounces: z.int().min(0).describe("Emails soft-bounced that day."),
    complaints: z.int().min(0).describe("Emails complained about that day."),
    unsubscribes: z.int().min(0).describe("Emails unsubscribed from that day."),
  })
  .meta({ id: "DailyActivity" });

/** {@link dailyActivitySchema}'s type. */
export type DailyActivity = z.output<typeof dailyActivitySchema>;

/** `CampaignPeriodStats` in the OpenAPI document. */
export const campaignPeriodStatsSchema = z
  .strictObject({
    campaign: campaignSchema,
    period: z.strictObject({
      start: dateTime.describe("00:00:00.000Z of the first day."),
      end: dateTime.describe("Now for `7d`/`30d`/`90d`; the last millisecond of the last day for a range."),
    }),
    stats: z
      .strictObject({
        totalEmails: z.int().min(0).describe("Emails sent in the period."),
        totalOpens: z.int().min(0).describe("Open events in the period."),
        totalClicks: z.int().min(0).describe("Click events in the period."),
        openRate: z
          .number()
          .min(0)
          .max(100)
          .describe("Opened emails sent in the period / emails sent in the period x 100."),
        clickThroughRate: z
          .number()
          .min(0)
          .describe("Click events / open events x 100 (0 without opens; may exceed 100)."),
        uniqueRecipients: z.int().min(0).describe("Distinct `to` addresses of the period's emails."),
        noInteraction: z.int().min(0).describe("Emails sent in the period with no open and no click."),
        ...feedbackCountFields,
        ...feedbackRateFields,
        human: z
          .strictObject({
            totalOpens: z.int().min(0).describe("Human open events in the period."),
            totalClicks: z.int().min(0).describe("Human click events in the period."),
            openRate: z
              .number()
              .min(0)
              .max(100)
              .describe("Emails sent in the period that a person opened / emails sent in the period x 100."),
            clickThroughRate: z
              .number()
              .min(0)
              .describe("Human clicks / human opens x 100 (0 without human opens)."),
            noInteraction: z
              .int()
              .min(0)
              .describe("Emails sent in the period with no human open and no human click."),
          })
          .describe("The same figures over hits judged human only (docs/measurement.md)."),
      })
      .describe("Rates are percentages rounded to two decimals (0 when the divisor is 0)."),
    openAndClicks: z
      .array(dailyActivitySchema)
      .describe("One entry per UTC day of the period, oldest first, zero-filled."),
    topLinks: z.array(linkClicksSchema).max(10).describe("The 10 most clicked URLs in the period."),
  })
  .meta({ id: "CampaignPeriodStats" });

/** {@link campaignPeriodStatsSchema}'s type. */
export type CampaignPeriodStats = z.output<typeof campaignPeriodStatsSchema>;

/** `GlobalStats` in the OpenAPI document. */
export const globalStatsSchema = z
  .strictObject({
    totalEmails: z.int().min(0).describe("Emails sent (or registered)."),
    totalOpens: z.int().min(0).describe("Open events."),
    totalClicks: z.int().min(0).describe("Click events."),
    openRate: z
      .number()
      .min(0)
      .max(100)
      .describe("Emails opened (an open or a click) / emails x 100, two decimals."),
    clickRate: z.number().min(0).max(100).describe("Emails with a click / emails x 100, two decimals."),
    ...feedbackCountFields,
    ...feedbackRateFields,
    human: z
      .strictObject({
        totalOpens: z.int().min(0).describe("Human open events."),
        totalClicks: z.int().min(0).describe("Human click events."),
        openRate: z.number().min(0).max(100).describe("Emails a person opened / emails x 100."),
        clickRate: z.number().min(0).max(100).describe("Emails a person clicked / emails x 100."),
      })
      .describe("The same figures over hits judged human only (docs/measurement.md)."),
  })
  .meta({ id: "GlobalStats" });

/** {@link globalStatsSchema}'s type. */
export type GlobalStats = z.output<typeof globalStatsSchema>;
