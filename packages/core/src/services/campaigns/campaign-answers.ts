import { z } from "zod";
import { feedbackCountFields, feedbackRateFields } from "../stats/feedback-stats.js";
import { dateTime } from "../validation/answer-fields.js";

/** `Campaign` in the OpenAPI document. */
export const campaignSchema = z
  .strictObject({
    id: z.string(),
    name: z.string().describe("Unique within the organization."),
    createdAt: dateTime,
  })
  .meta({ id: "Campaign" });

/** {@link campaignSchema}'s type. */
export type Campaign = z.output<typeof campaignSchema>;

/** `CampaignList` in the OpenAPI document. */
export const campaignListSchema = z
  .strictObject({
    campaigns: z.array(campaignSchema),
  })
  .meta({ id: "CampaignList" });

/** {@link campaignListSchema}'s type. */
export type CampaignList = z.output<typeof campaignListSchema>;

/** `LinkClicks` in the OpenAPI document. */
export const linkClicksSchema = z
  .strictObject({
    url: z.string(),
    clicks: z.int().min(0).describe("Click events on this URL."),
  })
  .meta({ id: "LinkClicks" });

/** {@link linkClicksSchema}'s type. */
export type LinkClicks = z.output<typeof linkClicksSchema>;

/** `CampaignEmail` in the OpenAPI document. */
export const campaignEmailSchema = z
  .strictObject({
    id: z.string().describe("The email's id."),
    trackingId: z.string().describe("The email's tracking id."),
    recipient: z.string().describe("The first `to` address."),
    subject: z.string(),
    createdAt: dateTime,
    opens: z.int().min(0).describe("Open events."),
    clicks: z.int().min(0).describe("Click events."),
  })
  .meta({ id: "CampaignEmail" });

/** {@link campaignEmailSchema}'s type. */
export type CampaignEmail = z.output<typeof campaignEmailSchema>;

/** `CampaignDetail` in the OpenAPI document. */
export const campaignDetailSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    createdAt: dateTime,
    stats: z
      .strictObject({
        totalEmails: z.int().min(0).describe("Emails sent."),
        totalOpens: z.int().min(0).describe("Open events."),
        totalClicks: z.int().min(0).describe("Click events."),
        openRate: z.number().min(0).max(100).describe("Emails opened (an open or a click) / emails x 100."),
        clickRate: z.number().min(0).max(100).describe("Emails with a click / emails x 100."),
        ...feedbackCountFields,
        ...feedbackRateFields,
        human: z
          .strictObject({
            totalOpens: z.int().min(0).describe("Human open events."),
            totalClicks: z.int().min(0).describe("Human click events."),
            openRate: z
              .number()
              .min(0)
              .max(100)
              .describe("Emails a person opened (a human open or click) / emails x 100."),
            clickRate: z.number().min(0).max(100).describe("Emails a person clicked / emails x 100."),
            noInteraction: z.int().min(0).describe("Emails with no human open and no human click."),
          })
          .describe(
            "The same figures over hits judged human only: Apple's privacy prefetch, security scanners and bots left out (docs/measurement.md).",
          ),
      })
      .describe(
        "All-time totals over the campaign's sent emails. Rates are percentages rounded to two decimals.",
      ),
    links: z
      .array(linkClicksSchema)
      .describe(
        "The campaign's 500 most clicked tracked URLs (`campaignDetailLinkLimit`), most clicked first, then by URL. `GET /campaigns/{id}/links` pages through all of them.",
      ),
    emails: z
      .array(campaignEmailSchema)
      .describe(
        "The campaign's most recent emails, newest first (at most the instance's `campaignDetailEmailLimit`, default 500).",
      ),
  })
  .meta({ id: "CampaignDetail" });

/** {@link campaignDetailSchema}'s type. */
export type CampaignDetail = z.output<typeof campaignDetailSchema>;
