import { z } from "zod";

/**
 * A time in an answer: an ISO 8601 string in UTC (`2026-03-05T07:59:59.000Z`). Answer schemas
 * parse nothing (they type and document what services return), so the format is stated for the
 * document rather than checked.
 */
export const dateTime = z.string().meta({ format: "date-time" });
