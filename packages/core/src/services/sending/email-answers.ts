import { z } from "zod";
import { tagsSchema } from "../sending/tags.js";
import { dateTime } from "../validation/answer-fields.js";

/** `TrackedLink` in the OpenAPI document. */
export const trackedLinkSchema = z
  .strictObject({
    originalUrl: z.string().describe("The URL as written in `htmlContent`."),
    trackingId: z.string().describe("The link's tracking id."),
    trackingUrl: z.string().describe("`{base}/api/t/c/<trackingId>`: redirects to `originalUrl`."),
  })
  .meta({
    id: "TrackedLink",
    description: "A link of the email rewritten to a tracking URL; one per occurrence in the HTML.",
  });

/** {@link trackedLinkSchema}'s type. */
export type TrackedLink = z.output<typeof trackedLinkSchema>;

/** `SendEmailResult` in the OpenAPI document. */
export const sendEmailResultSchema = z
  .strictObject({
    id: z.string().describe("The delivery provider's id of the message."),
    emailId: z
      .string()
      .describe("MailPulse's id of the email: `GET /api/emails/{emailId}` reads it back, with its status."),
    emailTrackingId: z.string().describe("The email's tracking id (in `pixelUrl`)."),
    from: z.string().describe("The sender actually used (after the sender rule)."),
    to: z.array(z.string()).describe("The recipients, as `Name <address>` or `address`."),
    subject: z.string(),
    links: z.array(trackedLinkSchema).describe("The tracked links; empty when `tracking.clicks` is false."),
    pixelUrl: z
      .string()
      .describe(
        "`{base}/api/t/o/<emailTrackingId>`. Returned even when `tracking.opens` is false (the pixel is then not injected).",
      ),
  })
  .meta({ id: "SendEmailResult" });

/** {@link sendEmailResultSchema}'s type. */
export type SendEmailResult = z.output<typeof sendEmailResultSchema>;

/** `RegisterEmailResult` in the OpenAPI document. */
export const registerEmailResultSchema = z
  .strictObject({
    id: z.string().describe("MailPulse's id of the registered email."),
    emailTrackingId: z.string().describe("The email's tracking id (in `pixelUrl`)."),
    html: z
      .string()
      .describe(
        "`htmlContent` with tracking applied: links rewritten to their tracking URLs and the pixel injected before `</body>` (or at the end). Send this as the email's HTML.",
      ),
    links: z.array(trackedLinkSchema).describe("The tracked links; empty when `tracking.clicks` is false."),
    pixelUrl: z
      .string()
      .describe(
        "`{base}/api/t/o/<emailTrackingId>`. Returned even when `tracking.opens` is false (the pixel is then not injected).",
      ),
  })
  .meta({ id: "RegisterEmailResult" });

/** {@link registerEmailResultSchema}'s type. */
export type RegisterEmailResult = z.output<typeof registerEmailResultSchema>;

/** `Email` in the OpenAPI document. */
export const emailSchema = z
  .strictObject({
    id: z.string().describe("MailPulse's id of the email."),
    emailTrackingId: z.string(),
    status: z
      .enum(["sending", "sent", "failed", "unknown"])
      .describe(
        "`unknown`: the server stopped while the provider had the message; it may have been delivered, and is counted and tracked like `sent`.",
      ),
    failureReason: z.string().nullable().describe("The provider's reason, for a `failed` email."),
    origin: z.enum(["send", "register"]),
    from: z.string().describe("The sender actually used."),
    replyTo: z.string().nullable(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    subject: z.string(),
    campaignId: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    tags: tagsSchema,
    providerMessageId: z.string().nullable(),
    opens: z.int().min(0),
    clicks: z.int().min(0),
    createdAt: dateTime,
    sentAt: dateTime.nullable(),
  })
  .meta({ id: "Email" });

/** {@link emailSchema}'s type. */
export type Email = z.output<typeof emailSchema>;
