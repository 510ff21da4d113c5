import { z } from "zod";

/** The longest id a path may carry: ids MailPulse makes are 36 (resources) or 22 (tracking) characters. */
export const maxPathIdLength = 200;

/**
 * The `:id` parameter of a resource route: 1 to {@link maxPathIdLength} characters (control
 * characters are refused earlier, for every route, by the router). Anything else is refused
 * before a storage is asked, so an absurd id costs no query.
 */
export const idParams = z.object({ id: z.string().min(1).max(maxPathIdLength) });
