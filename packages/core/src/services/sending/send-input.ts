import { z } from "zod";
import { schemaFor } from "../validation/schema-for.js";
import { mailboxListSchema, mailboxSchema } from "./addresses.js";

/** Which tracking an email gets; both default to true. */
export interface EmailTrackingSwitches {
  /** Insert the open pixel. */
  opens?: boolean;
  /** Rewrite links to click-tracking redirects. */
  clicks?: boolean;
}

/** What `emails.send` takes (the body of `POST /api/send`: the spec's table, plus `text` and `tracking`). */
export interface SendEmailInput {
  /** `address` or `Name <address>`; sent as given from a verified sending domain, else rewritten. */
  from: string;
  /** One address or up to 50, each `address` or `Name <address>`. */
  to: string | string[];
  /** One line, at most 998 characters. */
  subject: string;
  htmlContent: string;
  /** Plain-text part; generated from the HTML when absent. */
  text?: string;
  replyTo?: string;
  cc?: string | string[];
  bcc?: string | string[];
  /** A campaign's id or name; a name that does not exist yet creates the campaign. */
  campaignId?: string;
  /** Any JSON object of at most 16 KiB, echoed in webhook events. */
  metadata?: Record<string, unknown>;
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
  tracking?: EmailTrackingSwitches;
}

const singleLine = (field: string) =>
  z.string().refine((value) => !/[\r\n]/.test(value), `${field} must not contain line breaks`);

/** Metadata: a JSON object of at most 16 KiB once serialised. */
export const maxMetadataBytes = 16 * 1024;
const metadataSchema = z
  .record(z.string(), z.unknown())
  .refine(
    (value) => Buffer.byteLength(JSON.stringify(value), "utf8") <= maxMetadataBytes,
    `must be at most ${maxMetadataBytes} bytes as JSON`,
  );

const trackingSchema = z
  .object({ opens: z.boolean().optional(), clicks: z.boolean().optional() })
  .strict()
  .optional();

const campaignReference = z.string().trim().min(1).max(200);

/** Parses a {@link SendEmailInput}. */
export const sendEmailSchema = schemaFor<SendEmailInput>()(
  z.object({
    from: mailboxSchema,
    to: mailboxListSchema.refine((list) => list.length > 0, "at least one recipient"),
    subject: singleLine("subject").pipe(z.string().max(998)),
    htmlContent: z.string().min(1, "must not be empty"),
    text: z.string().optional(),
    replyTo: mailboxSchema.optional(),
    cc: mailboxListSchema.optional(),
    bcc: mailboxListSchema.optional(),
    campaignId: campaignReference.optional(),
    metadata: metadataSchema.optional(),
    tracking: trackingSchema,
  }),
);

/** Parses a {@link RegisterEmailInput}. */
export const registerEmailSchema = schemaFor<RegisterEmailInput>()(
  z.object({
    from: mailboxSchema.optional(),
    to: mailboxListSchema.refine((list) => list.length > 0, "at least one recipient"),
    subject: singleLine("subject").pipe(z.string().max(998)),
    htmlContent: z.string().min(1, "must not be empty"),
    campaignId: campaignReference.optional(),
    metadata: metadataSchema.optional(),
    tracking: trackingSchema,
  }),
);
