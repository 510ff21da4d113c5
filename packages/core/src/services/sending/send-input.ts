import { z } from "zod";
import { hasNoNul, nulMessage } from "../validation/no-nul.js";
import { mailboxListSchema, mailboxSchema, recipientsSchema } from "./addresses.js";
import { attachmentsSchema } from "./attachments.js";
import { customHeadersSchema } from "./custom-headers.js";
import { metadataSchema } from "./metadata.js";
import {
  maxContentBytes,
  maxRecipientsPerEmail,
  maxSubjectLength,
  maxUnsubscribePlaceholders,
} from "./send-limits.js";
import { tagsSchema } from "./tags.js";
import { countUnsubscribePlaceholders, hasUnsubscribePlaceholder } from "./unsubscribe-link.js";

const subjectSchema = z
  .string()
  .refine((value) => !/[\r\n]/.test(value), "subject must not contain line breaks")
  .refine(hasNoNul, nulMessage)
  .pipe(z.string().max(maxSubjectLength, `must be at most ${maxSubjectLength} characters`))
  // The refinements are code: the document says what they check.
  .meta({
    id: "Subject",
    description: "The subject line: no line breaks, at most 998 characters.",
    maxLength: maxSubjectLength,
    pattern: "^[^\\r\\n]*$",
  });

/** HTML or text content: at most {@link maxContentBytes} UTF-8 bytes, no NUL. */
const contentSchema = z
  .string()
  .refine(
    (value) => Buffer.byteLength(value, "utf8") <= maxContentBytes,
    `must be at most ${maxContentBytes} bytes`,
  )
  .refine(hasNoNul, nulMessage);

const trackingSchema = z
  .strictObject({
    opens: z.boolean().optional().meta({ default: true, description: "Inject the open pixel." }),
    clicks: z.boolean().optional().meta({ default: true, description: "Rewrite links to tracking URLs." }),
  })
  .meta({ id: "TrackingSwitches", description: "What to track. Both default to true." });

const campaignReference = z.string().trim().min(1).max(200).refine(hasNoNul, nulMessage).meta({
  id: "CampaignReference",
  description:
    "The campaign to associate the email with: a campaign name (looked up first) or a campaign id. Trimmed; 1 to 200 characters. A name that does not exist yet creates the campaign (`403` past the plan's campaign limit); an archived campaign is refused (`400`).",
});

/** The HTML body: not empty. */
const htmlContentSchema = contentSchema
  .refine((value) => value.length > 0, "must not be empty")
  .meta({ minLength: 1, description: "The HTML body, before tracking is applied." });

/** Whether `content` holds at most {@link maxUnsubscribePlaceholders} unsubscribe placeholders. */
const fewPlaceholders = (content: string | undefined) =>
  countUnsubscribePlaceholders(content, maxUnsubscribePlaceholders + 1) <= maxUnsubscribePlaceholders;
const tooManyPlaceholders = `holds {{unsubscribe_url}} more than ${maxUnsubscribePlaceholders} times`;

const recipientCount = (input: { to: unknown[]; cc?: unknown[]; bcc?: unknown[] }) =>
  input.to.length + (input.cc?.length ?? 0) + (input.bcc?.length ?? 0);

/**
 * What `emails.send` takes (the body of `POST /api/send`: the spec's table, plus `text`,
 * `attachments`, `headers`, `tags` and `tracking`). Any other field is refused, naming it: a field
 * silently dropped (an attachment that vanishes) is worse than an error. Limits: docs/limits.md.
 */
export const sendEmailSchema = z
  .strictObject({
    from: mailboxSchema.describe(
      "The sender, optionally with a display name (`Name <address>`). Used as given when its domain is a verified sending domain of the organization; otherwise rewritten to the same local part at `send.<platformDomain>` with `Reply-To` set to it.",
    ),
    to: recipientsSchema.describe("The recipient(s): each becomes a contact."),
    subject: subjectSchema,
    htmlContent: htmlContentSchema,
    text: contentSchema.optional().describe("The plain-text part. Default: generated from the tracked HTML."),
    replyTo: mailboxSchema.optional().describe("The Reply-To address."),
    cc: mailboxListSchema.optional(),
    bcc: mailboxListSchema.optional(),
    campaignId: campaignReference.optional(),
    metadata: metadataSchema.optional(),
    attachments: attachmentsSchema.optional(),
    headers: customHeadersSchema.optional(),
    tags: tagsSchema.optional(),
    tracking: trackingSchema.optional(),
    unsubscribe: z
      .boolean()
      .optional()
      .describe(
        "Offer one-click unsubscribe: `List-Unsubscribe` (an HTTPS URL and a mailto) and `List-Unsubscribe-Post` headers naming the first `to` recipient, and `{{unsubscribe_url}}` in `htmlContent` and `text` replaced by the same URL. Default: true when the email is sent in a campaign (`campaignId`) or its content holds `{{unsubscribe_url}}`, false otherwise; `false` opts a transactional campaign email out. A `List-Unsubscribe` of your own in `headers` is kept and none is added. See docs/deliverability.md.",
      ),
  })
  .refine((input) => recipientCount(input) <= maxRecipientsPerEmail, {
    message: `at most ${maxRecipientsPerEmail} recipients in to, cc and bcc together`,
    path: ["to"],
  })
  .refine(
    (input) =>
      input.unsubscribe !== false ||
      !(hasUnsubscribePlaceholder(input.htmlContent) || hasUnsubscribePlaceholder(input.text)),
    {
      message:
        "is false, but htmlContent or text holds {{unsubscribe_url}}: remove the placeholder or drop `unsubscribe: false`",
      path: ["unsubscribe"],
    },
  )
  .refine((input) => fewPlaceholders(input.htmlContent), {
    message: tooManyPlaceholders,
    path: ["htmlContent"],
  })
  .refine((input) => fewPlaceholders(input.text), { message: tooManyPlaceholders, path: ["text"] })
  .meta({ id: "SendEmailRequest" });

/** What `emails.send` takes: {@link sendEmailSchema}'s input. */
export type SendEmailInput = z.input<typeof sendEmailSchema>;

/** Which tracking an email gets; both default to true. */
export type EmailTrackingSwitches = NonNullable<SendEmailInput["tracking"]>;

/** What `emails.register` takes (the body of `POST /api/emails`): an email another system sends. */
export const registerEmailSchema = z
  .strictObject({
    from: mailboxSchema
      .optional()
      .describe("The sender the caller uses; recorded only (MailPulse does not send)."),
    to: recipientsSchema.describe("The recipient(s): each becomes a contact."),
    subject: subjectSchema,
    htmlContent: htmlContentSchema,
    campaignId: campaignReference.optional(),
    metadata: metadataSchema.optional(),
    tags: tagsSchema.optional(),
    tracking: trackingSchema.optional(),
  })
  .refine((input) => recipientCount(input) <= maxRecipientsPerEmail, {
    message: `at most ${maxRecipientsPerEmail} recipients`,
    path: ["to"],
  })
  .meta({ id: "RegisterEmailRequest" });

/** What `emails.register` takes: {@link registerEmailSchema}'s input. */
export type RegisterEmailInput = z.input<typeof registerEmailSchema>;
