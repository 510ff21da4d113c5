import { z } from "zod";
import { maxAttachmentBytes, maxAttachments } from "./send-limits.js";

/** A file attached to a sent email. Never a path or URL: MailPulse reads no file and fetches nothing. */
export interface AttachmentInput {
  /** The name the recipient sees, e.g. `invoice.pdf`: 1 to 255 characters, no `/` or `\`. */
  filename: string;
  /** The bytes: base64 text (JSON callers) or a `Buffer`/`Uint8Array` (in-process callers). */
  content: string | Uint8Array;
  /** MIME type, e.g. `application/pdf`. Default: guessed from the file name's extension. */
  contentType?: string;
}

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
  .refine((name) => !/[/\\]/.test(name), "must be a file name, not a path");

/**
 * Base64 text (line breaks and spaces allowed, as MIME writes it) or bytes, to a Buffer. Sizes are
 * checked before decoding, so an oversized upload costs no second copy.
 */
const contentSchema = z.custom<string | Uint8Array>().transform((value: unknown, context) => {
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
});

const attachmentSchema = z.strictObject({
  filename: filenameSchema,
  content: contentSchema,
  contentType: z
    .string()
    .max(255, "must be at most 255 characters")
    .regex(mimeType, "must be a MIME type such as application/pdf")
    .optional(),
});

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
  });
