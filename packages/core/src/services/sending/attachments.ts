import { z } from "zod";
import { maxAttachmentBytes, maxAttachments } from "./send-limits.js";

/** An attachment once checked: its bytes decoded. */
export interface Attachment {
  filename: string;
  content: Buffer;
  contentType?: string;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const controlCharacters = /[\u0000-\u001f\u007f]/;
const base64Text = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const token = "[A-Za-z0-9!#$&^_.+-]+";
const mimeType = new RegExp(`^${token}/${token}(?:\\s*;\\s*${token}=(?:"[^"\\\\]*"|${token}))*$`);

const filenameSchema = z
  .string()
  .min(1, "must not be empty")
  .max(255, "must be at most 255 characters")
  .refine((name) => !controlCharacters.test(name), "must not contain control characters")
  .refine((name) => !/[/\\]/.test(name), "must be a file name, not a path")
  .describe("The name the recipient sees; no `/` or `\\`.");

/**
 * Base64 text (line breaks and spaces allowed, as MIME writes it) or bytes, to a Buffer. Sizes are
 * checked before decoding, so an oversized upload costs no second copy.
 */
const contentSchema = z
  .custom<string | Uint8Array>()
  .transform((value: unknown, context) => {
    if (value instanceof Uint8Array) {
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
    if (typeof value !== "string") {
      context.addIssue({ code: "custom", message: "must be base64 text (or a Buffer in-process)" });
      return z.NEVER;
    }
    const compact = value.replace(/\s+/g, "");
    if ((compact.length / 4) * 3 > maxAttachmentBytes + 2) {
      context.addIssue({ code: "custom", message: `must be at most ${maxAttachmentBytes} bytes` });
      return z.NEVER;
    }
    if (!base64Text.test(compact)) {
      context.addIssue({ code: "custom", message: "is not valid base64" });
      return z.NEVER;
    }
    return Buffer.from(compact, "base64");
  })
  // A z.custom: zod cannot derive its JSON Schema, so it is written here (JSON callers send base64).
  .meta({
    type: "string",
    contentEncoding: "base64",
    description: "The file's bytes, base64-encoded (line breaks allowed).",
  });

const attachmentSchema = z
  .strictObject({
    filename: filenameSchema,
    content: contentSchema,
    contentType: z
      .string()
      .max(255, "must be at most 255 characters")
      .regex(mimeType, "must be a MIME type such as application/pdf")
      .optional()
      .describe("MIME type. Default: guessed from the file name."),
  })
  .meta({ id: "Attachment" });

/** `attachments`: at most {@link maxAttachments}, {@link maxAttachmentBytes} decoded bytes in all. */
export const attachmentsSchema = z
  .array(attachmentSchema)
  .max(maxAttachments, `at most ${maxAttachments} attachments`)
  .superRefine((attachments, context) => {
    const total = attachments.reduce((sum, attachment) => sum + attachment.content.byteLength, 0);
    if (total > maxAttachmentBytes) {
      context.addIssue({
        code: "custom",
        message: `add up to ${total} bytes; at most ${maxAttachmentBytes} bytes in all`,
      });
    }
  })
  .describe("Files to attach: at most 20, 10 MiB decoded in all. Content only, never a path or URL.");

/**
 * A file attached to a sent email: its content is base64 text (JSON callers) or a
 * `Buffer`/`Uint8Array` (in-process callers). Never a path or URL: MailPulse reads no file and
 * fetches nothing.
 */
export type AttachmentInput = z.input<typeof attachmentSchema>;
