/**
 * The limits of a send or register input (docs/limits.md). One place, so the schemas, the
 * documentation and the tests quote the same numbers.
 */

/** Subject: one line of at most 998 characters (RFC 5322's line limit). */
export const maxSubjectLength = 998;
/** `htmlContent` and `text`, each, in UTF-8 bytes: 5 MiB. */
export const maxContentBytes = 5 * 1024 * 1024;
/** Recipients of one email, `to`, `cc` and `bcc` together (Resend and Postmark allow 50). */
export const maxRecipientsPerEmail = 50;
/**
 * Links tracked in one email. A newsletter has tens; past a thousand the input is a list of links,
 * not an email, and rewriting it costs everyone else's requests their time.
 */
export const maxTrackedLinks = 1000;
/**
 * `{{unsubscribe_url}}` placeholders in `htmlContent`, and in `text`, each. An email has one or two;
 * each becomes a URL five times its length, so 5 MiB of them made 14 MB to write while every other
 * request waited (issue 31). Counted up to one past the limit, so the refusal is cheap.
 */
export const maxUnsubscribePlaceholders = 100;
/** `metadata`: a JSON object of at most 16 KiB once serialised. */
export const maxMetadataBytes = 16 * 1024;
/** Attachments of one email. */
export const maxAttachments = 20;
/** The decoded size of all attachments of one email together: 10 MiB (Postmark's message limit). */
export const maxAttachmentBytes = 10 * 1024 * 1024;
/** Custom headers of one email. */
export const maxCustomHeaders = 50;
/** Tags of one email. */
export const maxTags = 20;
/** Characters of a tag's name, and of its value. */
export const maxTagLength = 256;
