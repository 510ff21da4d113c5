import { z } from "zod";
import { opaqueCursor, pageLimit } from "../validation/page-query.js";
import { decodeContactCursor } from "./contact-cursor.js";

/** Contacts per page when `limit` is not given. */
export const defaultContactPageSize = 100;
/** The largest accepted `limit`. */
export const maxContactPageSize = 1000;

/**
 * What `contacts.list` takes (the query of `GET /api/contacts`). `limit` is coerced, so the query
 * string's `"20"` parses as the number a TypeScript caller passes; `cursor` comes out decoded.
 */
export const contactListSchema = z.object({
  search: z
    .string()
    .max(320, "must be at most 320 characters")
    .optional()
    .describe("Case-insensitive substring of the address, at most 320 characters."),
  limit: pageLimit(maxContactPageSize, defaultContactPageSize).describe("Page size."),
  cursor: opaqueCursor(2000, decodeContactCursor).describe("The `nextCursor` of the previous page."),
});

/** What `contacts.list` takes: {@link contactListSchema}'s input. */
export type ContactListInput = z.input<typeof contactListSchema>;
