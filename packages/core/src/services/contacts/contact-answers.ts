import { z } from "zod";
import { feedbackCountFields } from "../stats/feedback-stats.js";
import { dateTime } from "../validation/answer-fields.js";

/** `ContactSummary` in the OpenAPI document. */
export const contactSummarySchema = z
  .strictObject({
    email: z.string().describe("The address, lowercased."),
    totalEmails: z.int().min(0).describe("Emails sent to the contact."),
    totalOpens: z.int().min(0).describe("Open events."),
    totalClicks: z.int().min(0).describe("Click events."),
    campaigns: z.array(z.string()).describe("Names of the campaigns the contact received, sorted."),
    engagementScore: z
      .int()
      .min(0)
      .max(100)
      .describe("min(100, round((totalOpens / totalEmails x 60 + totalClicks / totalEmails x 40) x 100))."),
    lastActivity: dateTime.describe("The contact's latest email, open or click."),
    humanOpens: z.int().min(0).describe("Open events judged human (docs/measurement.md)."),
    humanClicks: z.int().min(0).describe("Click events judged human."),
    humanEngagementScore: z
      .int()
      .min(0)
      .max(100)
      .describe("The engagement score's formula on human events only."),
  })
  .meta({ id: "ContactSummary" });

/** {@link contactSummarySchema}'s type. */
export type ContactSummary = z.output<typeof contactSummarySchema>;

/** `ContactTimelineEvent` in the OpenAPI document. */
export const contactTimelineEventSchema = z
  .strictObject({
    type: z.enum(["sent", "opened", "clicked"]),
    timestamp: dateTime,
    subject: z.string().describe("The email's subject."),
    campaign: z.string().describe("The campaign's name; present when the email belongs to one.").optional(),
    link: z.string().describe("The clicked URL; present on `clicked` only.").optional(),
    machine: z
      .boolean()
      .describe(
        "On `opened` and `clicked`: true when a program (Apple's privacy prefetch, a security scanner, a bot) made it (docs/measurement.md).",
      )
      .optional(),
    source: z
      .enum(["apple_privacy", "image_proxy", "security_scanner", "bot", "human"])
      .describe("On `opened` and `clicked`: who made it.")
      .optional(),
  })
  .meta({ id: "ContactTimelineEvent" });

/** {@link contactTimelineEventSchema}'s type. */
export type ContactTimelineEvent = z.output<typeof contactTimelineEventSchema>;

/** `ContactDetail` in the OpenAPI document: the summary, with rates and the timeline. */
export const contactDetailSchema = contactSummarySchema
  .extend({
    firstSeen: dateTime.describe("When the first email to the contact was sent."),
    openRate: z.number().min(0).describe("Open events per email: a ratio (not a percentage), four decimals."),
    clickRate: z
      .number()
      .min(0)
      .describe("Click events per email: a ratio (not a percentage), four decimals."),
    timeline: z
      .array(contactTimelineEventSchema)
      .max(100)
      .describe("The contact's sends, opens and clicks, newest first, at most 100."),
    hardBounces: feedbackCountFields.hardBounces.describe(
      "The contact's sent emails that hard-bounced for it.",
    ),
    softBounces: feedbackCountFields.softBounces.describe(
      "The contact's sent emails that soft-bounced for it (and did not hard-bounce).",
    ),
    complaints: feedbackCountFields.complaints.describe("The contact's sent emails it complained about."),
    unsubscribes: feedbackCountFields.unsubscribes.describe(
      "The contact's sent emails it unsubscribed from.",
    ),
    suppression: z
      .strictObject({
        reason: z.enum(["hard_bounce", "complaint", "unsubscribe", "manual"]),
        since: dateTime.describe("When the address was first suppressed."),
      })
      .nullable()
      .describe(
        "Whether sends to the contact are dropped (docs/deliverability.md): its suppression list entry's reason and time, or null.",
      ),
  })
  .meta({ id: "ContactDetail" });

/** {@link contactDetailSchema}'s type. */
export type ContactDetail = z.output<typeof contactDetailSchema>;
