import { z } from "zod";

// The paged lists (contacts, a campaign's links, events) take their page the same way: a `limit`
// the query string carries as text, and an opaque cursor MailPulse issued. One spelling here keeps
// their refusals worded alike (`"limit": must be at most 1000`).

/**
 * A page's `limit`: coerced from the query string's text (`"20"` parses as the number a
 * TypeScript caller passes), an integer from 1 to `max`, `byDefault` when absent.
 */
export function pageLimit(max: number, byDefault: number) {
  return z.coerce
    .number<number>()
    .int("must be an integer")
    .min(1, "must be at least 1")
    .max(max, `must be at most ${max}`)
    .default(byDefault);
}

/**
 * An optional opaque `cursor` of at most `maxLength` characters, coming out as `decode` makes
 * it. A token `decode` refuses (`undefined`) is answered "is not a cursor MailPulse issued".
 */
export function opaqueCursor<T>(maxLength: number, decode: (token: string) => T | undefined) {
  return z
    .string()
    .max(maxLength)
    .transform((token, context) => {
      const position = decode(token);
      if (position === undefined) {
        context.addIssue({
          code: "custom",
          message: "is not a cursor MailPulse issued; use the one the previous page gave",
        });
        return z.NEVER;
      }
      return position;
    })
    .optional();
}
