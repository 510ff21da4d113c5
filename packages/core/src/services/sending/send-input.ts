import { z } from "zod";
import { mailboxListSchema, mailboxSchema } from "./addresses.js";

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

/** Body of `POST /api/send` (the spec's table, plus optional `text` and `tracking`). */
export const sendEmailSchema = z.object({
  from: mailboxSchema,
  to: mailboxListSchema.refine((list) => list.length > 0, "at least one recipient"),
  subject: singleLine("subject").pipe(z.string().max(998)),
  htmlContent: z.string().min(1, "must not be empty"),
  /** Plain-text part; generated from the HTML when absent. */
  text: z.string().optional(),
  replyTo: mailboxSchema.optional(),
  cc: mailboxListSchema.optional(),
  bcc: mailboxListSchema.optional(),
  campaignId: campaignReference.optional(),
  metadata: metadataSchema.optional(),
  tracking: trackingSchema,
});

/** What callers pass to `emails.send` (strings, as in the JSON body). */
export type SendEmailInput = z.input<typeof sendEmailSchema>;

/** Body of `POST /api/emails`: register an email another system sends. */
export const registerEmailSchema = z.object({
  from: mailboxSchema.optional(),
  to: mailboxListSchema.refine((list) => list.length > 0, "at least one recipient"),
  subject: singleLine("subject").pipe(z.string().max(998)),
  htmlContent: z.string().min(1, "must not be empty"),
  campaignId: campaignReference.optional(),
  metadata: metadataSchema.optional(),
  tracking: trackingSchema,
});

/** What callers pass to `emails.register`. */
export type RegisterEmailInput = z.input<typeof registerEmailSchema>;
