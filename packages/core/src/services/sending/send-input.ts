import { z } from "zod";
import { hasNoNul, nulMessage } from "../validation/no-nul.js";
import { schemaFor } from "../validation/schema-for.js";
import { mailboxListSchema, mailboxSchema } from "./addresses.js";
import { type AttachmentInput, attachmentsSchema } from "./attachments.js";
import { customHeadersSchema } from "./custom-headers.js";
import { metadataSchema } from "./metadata.js";
import { maxContentBytes, maxRecipientsPerEmail, maxSubjectLength } from "./send-limits.js";
import { type EmailTag, tagsSchema } from "./tags.js";

/** Which tracking an email gets; both default to true. */
export interface EmailTrackingSwitches {
  /** Insert the open pixel. */
  opens?: boolean;
  /** Rewrite links to click-tracking redirects. */
  clicks?: boolean;
}

/**
 * What `emails.send` takes (the body of `POST /api/send`: the spec's table, plus `text`,
 * `attachments`, `headers`, `tags` and `tracking`). Any other field is refused, naming it: a field
 * silently dropped (an attachment that vanishes) is worse than an error. Limits: docs/limits.md.
 */
export interface SendEmailInput {
  /** `address` or `Name <address>`; sent as given from a verified sending domain, else rewritten. */
  from: string;
  /** One address or several, each `address` or `Name <address>`; 50 recipients at most with cc and bcc. */
  to: string | string[];
  /** One line, at most 998 characters. */
  subject: string;
  /** At most 5 MiB. */
  htmlContent: string;
  /** Plain-text part, at most 5 MiB; generated from the HTML when absent. */
  text?: string;
  replyTo?: string;
  cc?: string | string[];
  bcc?: string | string[];
  /** A campaign's id or name; a name that does not exist yet creates the campaign. */
  campaignId?: string;
  /** Any JSON object of at most 16 KiB, echoed in webhook events. */
  metadata?: Record<string, unknown>;
  /** Files to attach: base64 content (or bytes in-process), never a path or URL. */
  attachments?: AttachmentInput[];
  /** Extra headers (`List-Unsubscribe`, `In-Reply-To`...); those MailPulse writes are refused. */
  headers?: Record<string, string>;
  /** Labels stored with the email and returned with it. */
  tags?: EmailTag[];
  tracking?: EmailTrackingSwitches;
}

/** What `emails.register` takes (the body of `POST /api/emails`): an email another system sends. */
export interface RegisterEmailInput {
  from?: string;
  to: string | string[];
  subject: string;
  htmlContent: string;
  campaignId?: string;
  metadata?: Record<string, unknown>;
  tags?: EmailTag[];
  tracking?: EmailTrackingSwitches;
}

const subjectSchema = z
  .string()
  .refine((value) => !/[\r\n]/.test(value), "subject must not contain line breaks")
  .refine(hasNoNul, nulMessage)
  .pipe(z.string().max(maxSubjectLength, `must be at most ${maxSubjectLength} characters`));

/** HTML or text content: at most {@link maxContentBytes} UTF-8 bytes, no NUL. */
const contentSchema = z
  .string()
  .refine(
    (value) => Buffer.byteLength(value, "utf8") <= maxContentBytes,
    `must be at most ${maxContentBytes} bytes`,
  )
  .refine(hasNoNul, nulMessage);

const trackingSchema = z
  .strictObject({ opens: z.boolean().optional(), clicks: z.boolean().optional() })
  .optional();

const campaignReference = z.string().trim().min(1).max(200).refine(hasNoNul, nulMessage);

const recipientCount = (input: { to: unknown[]; cc?: unknown[]; bcc?: unknown[] }) =>
  input.to.length + (input.cc?.length ?? 0) + (input.bcc?.length ?? 0);

/** Parses a {@link SendEmailInput}. */
export const sendEmailSchema = schemaFor<SendEmailInput>()(
  z
    .strictObject({
      from: mailboxSchema,
      to: mailboxListSchema.refine((list) => list.length > 0, "at least one recipient"),
      subject: subjectSchema,
      htmlContent: contentSchema.refine((value) => value.length > 0, "must not be empty"),
      text: contentSchema.optional(),
      replyTo: mailboxSchema.optional(),
      cc: mailboxListSchema.optional(),
      bcc: mailboxListSchema.optional(),
      campaignId: campaignReference.optional(),
      metadata: metadataSchema.optional(),
      attachments: attachmentsSchema.optional(),
      headers: customHeadersSchema.optional(),
      tags: tagsSchema.optional(),
      tracking: trackingSchema,
    })
    .refine((input) => recipientCount(input) <= maxRecipientsPerEmail, {
      message: `at most ${maxRecipientsPerEmail} recipients in to, cc and bcc together`,
      path: ["to"],
    }),
);

/** Parses a {@link RegisterEmailInput}. */
export const registerEmailSchema = schemaFor<RegisterEmailInput>()(
  z
    .strictObject({
      from: mailboxSchema.optional(),
      to: mailboxListSchema.refine((list) => list.length > 0, "at least one recipient"),
      subject: subjectSchema,
      htmlContent: contentSchema.refine((value) => value.length > 0, "must not be empty"),
      campaignId: campaignReference.optional(),
      metadata: metadataSchema.optional(),
      tags: tagsSchema.optional(),
      tracking: trackingSchema,
    })
    .refine((input) => recipientCount(input) <= maxRecipientsPerEmail, {
      message: `at most ${maxRecipientsPerEmail} recipients`,
      path: ["to"],
    }),
);
