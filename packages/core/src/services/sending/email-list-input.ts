import { z } from "zod";
import type { EmailStatus } from "../../ports/storage.js";
import { suppressedAddressSchema } from "../suppressions/suppression-input.js";
import { opaqueCursor, pageLimit } from "../validation/page-query.js";
import { decodeEmailCursor } from "./email-cursor.js";

/** Emails per page of `GET /api/emails` when `limit` is not given. */
export const defaultEmailPageSize = 20;
/** The largest accepted `limit`: each email comes whole, with its recipients and tags. */
export const maxEmailPageSize = 100;

/** Every status an email can have, as `GET /api/emails/:id` shows it. */
export const emailStatuses = [
  "sending",
  "sent",
  "failed",
  "unknown",
  "suppressed",
  "bounced",
] as const satisfies readonly EmailStatus[];

/** An ISO 8601 time with its offset (`2026-03-01T00:00:00Z`), coming out as a `Date`. */
const isoTime = z
  .string()
  .max(40, "must be at most 40 characters")
  .transform((value, context) => {
    const at = new Date(value);
    if (!/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(at.getTime())) {
      context.addIssue({ code: "custom", message: "must be an ISO 8601 time such as 2026-03-01T00:00:00Z" });
      return z.NEVER;
    }
    return at;
  });

/**
 * What `emails.list` takes (the query of `GET /api/emails`): `limit` coerced from the query
 * string, `after` decoded, `to` normalised as the send stores recipients (trimmed, lowercased).
 */
export const emailListSchema = z
  .object({
    after: opaqueCursor(400, decodeEmailCursor).describe("The `nextCursor` of the previous page."),
    limit: pageLimit(maxEmailPageSize, defaultEmailPageSize).describe("Page size (1 to 100, default 20)."),
    campaignId: z
      .string()
      .min(1, "must not be empty")
      .max(200, "must be at most 200 characters")
      .optional()
      .describe("Only emails of the campaign with this id."),
    status: z
      .enum(emailStatuses, `must be one of ${emailStatuses.join(", ")}`)
      .optional()
      .describe("Only emails with this status."),
    to: suppressedAddressSchema
      .optional()
      .describe("Only emails with this `to` recipient: a bare address, any case."),
    since: isoTime.optional().describe("Only emails created at or after this ISO 8601 time."),
    until: isoTime.optional().describe("Only emails created before this ISO 8601 time."),
  })
  .refine((query) => !(query.since && query.until) || query.since < query.until, {
    message: "must be after since",
    path: ["until"],
  });

/** What `emails.list` takes: {@link emailListSchema}'s input. */
export type EmailListInput = z.input<typeof emailListSchema>;
