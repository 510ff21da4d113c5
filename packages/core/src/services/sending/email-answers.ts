import { z } from "zod";
import { tagsSchema } from "../sending/tags.js";
import { suppressedRecipientSchema } from "../suppressions/suppression-answers.js";
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

/** The answers' list of recipients dropped as suppressed, present only when one was. */
const droppedRecipients = z
  .array(suppressedRecipientSchema)
  .optional()
  .describe(
    "Recipients dropped because they are on the organization's suppression list (docs/deliverability.md); absent when none was.",
  );

/** `RejectedRecipient` in the OpenAPI document: a recipient refused at send time. */
export const rejectedRecipientSchema = z
  .strictObject({
    address: z.string().describe("The recipient as it was given in the envelope."),
    bounceType: z
      .enum(["hard", "soft"])
      .describe(
        "`hard` for a 5xx reply (the address is suppressed), `soft` for a 4xx one, a full mailbox (x.2.2) or a retry timeout (x.4.7).",
      ),
    status: z.string().nullable().describe("The enhanced status code of the reply (`5.1.1`), or null."),
    diagnostic: z.string().describe("The server's reply, e.g. `550 5.1.1 User unknown`."),
  })
  .meta({ id: "RejectedRecipient" });

/** `SendEmailResult` in the OpenAPI document. */
export const sendEmailResultSchema = z
  .strictObject({
    id: z.string().describe("The delivery provider's id of the message."),
    emailId: z
      .string()
      .describe("MailPulse's id of the email: `GET /api/emails/{emailId}` reads it back, with its status."),
    emailTrackingId: z.string().describe("The email's tracking id (in `pixelUrl`)."),
    from: z.string().describe("The sender actually used (after the sender rule)."),
    to: z
      .array(z.string())
      .describe("The `to` recipients sent to, as `Name <address>` or `address` (suppressed ones left out)."),
    subject: z.string(),
    links: z.array(trackedLinkSchema).describe("The tracked links; empty when `tracking.clicks` is false."),
    pixelUrl: z
      .string()
      .describe(
        "`{base}/api/t/o/<emailTrackingId>`. Returned even when `tracking.opens` is false (the pixel is then not injected).",
      ),
    suppressedRecipients: droppedRecipients,
    rejectedRecipients: z
      .array(rejectedRecipientSchema)
      .optional()
      .describe(
        'Recipients the receiving server refused while the message was handed over, while others accepted it; each is recorded as a bounce (docs/deliverability.md, "Send-time rejections"). Absent when none was.',
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
    suppressedRecipients: droppedRecipients.describe(
      "`to` recipients on the organization's suppression list (docs/deliverability.md): left out of the record; do not send to them. Absent when none was.",
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
      .enum(["sending", "sent", "failed", "unknown", "suppressed", "bounced"])
      .describe(
        "`unknown`: the server stopped while the provider had the message; it may have been delivered, and is counted and tracked like `sent`. `suppressed`: every `to` recipient was on the suppression list, so nothing was sent; counted nowhere. `bounced`: it was sent and every `to` recipient hard-bounced since; counted like `sent` (docs/deliverability.md).",
      ),
    failureReason: z
      .string()
      .nullable()
      .describe("The provider's reason, for a `failed` email; the refusal, for a `suppressed` one."),
    origin: z.enum(["send", "register"]),
    from: z.string().describe("The sender actually used."),
    replyTo: z.string().nullable(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    suppressedRecipients: z
      .array(suppressedRecipientSchema)
      .describe(
        "Recipients dropped because they are on the suppression list. They are not in `to`, `cc` and `bcc`, except for a `suppressed` email, which keeps the recipients requested.",
      ),
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

/** `EmailPage` in the OpenAPI document: a page of `GET /api/emails`. */
export const emailPageSchema = z
  .strictObject({
    data: z.array(emailSchema).describe("Emails newest first, each as `GET /api/emails/{id}` answers it."),
    nextCursor: z
      .string()
      .nullable()
      .describe("Set when the page is full; pass it as `after` for the next page. Null on the last page."),
  })
  .meta({ id: "EmailPage" });

/** {@link emailPageSchema}'s type. */
export type EmailPage = z.output<typeof emailPageSchema>;

/** {@link emailSchema}'s type. */
export type Email = z.output<typeof emailSchema>;
