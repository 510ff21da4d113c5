import { MailPulseError } from "../errors.js";
import { dayMs, utcDayOf } from "../util/utc-day.js";

/** The longest date range `period` accepts, in days (a leap year). */
export const maxPeriodDays = 366;

/** The `period` values of `GET /api/campaigns/:id/stats`, as the error message lists them. */
export const acceptedPeriodFormats =
  "7d, 30d, 90d, or an inclusive date range YYYY-MM-DD,YYYY-MM-DD of at most 366 days";

/** A resolved statistics period. */
export interface StatsPeriod {
  /** 00:00:00.000Z of the first day. */
  start: Date;
  /** `now` for `7d`/`30d`/`90d`; 23:59:59.999Z of the last day for a range. */
  end: Date;
  /** UTC day numbers (days since the epoch) of the first and last day, inclusive. */
  firstDay: number;
  lastDay: number;
}

// A Map, not an object literal: a period read from the query string such as `__proto__` or
// `toString` must not find an inherited property (the API fuzz found a 500 that way).
const lastDays = new Map<string, number>([
  ["7d", 7],
  ["30d", 30],
  ["90d", 90],
]);
const datePattern = /^(\d{4}-\d{2}-\d{2})\s*,\s*(\d{4}-\d{2}-\d{2})$/;

function invalid(input: string, reason: string): MailPulseError {
  // Echo a bounded prefix only: the message should help, not reflect arbitrary input back.
  const shown = input.length > 40 ? `${input.slice(0, 40)}...` : input;
  return new MailPulseError(
    "VALIDATION_FAILED",
    `Invalid period "${shown}": ${reason}. Accepted formats: ${acceptedPeriodFormats}`,
    { issues: [{ path: ["period"], message: `is not a period (${reason}); use ${acceptedPeriodFormats}` }] },
  );
}

function parseDay(input: string, text: string): number {
  const at = new Date(`${text}T00:00:00.000Z`);
  // The round trip rejects dates JavaScript would otherwise roll over (2026-02-30 -> March 2).
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text) {
    throw invalid(input, `${text} is not a calendar date`);
  }
  return utcDayOf(at.getTime());
}

/**
 * Resolves a `period` query value at `now`. `7d`/`30d`/`90d` cover today and the N-1 UTC days
 * before it, from 00:00:00.000Z of the first day up to `now`. `YYYY-MM-DD,YYYY-MM-DD` covers both
 * days whole (spaces around the comma are tolerated). Anything else, an impossible date, a range
 * that ends before it starts or spans more than {@link maxPeriodDays} days throws
 * VALIDATION_FAILED (400) with the accepted formats in the message.
 */
export function parsePeriod(input: string, now: Date): StatsPeriod {
  const days = lastDays.get(input);
  if (days !== undefined) {
    const lastDay = utcDayOf(now.getTime());
    const firstDay = lastDay - (days - 1);
    return { start: new Date(firstDay * dayMs), end: now, firstDay, lastDay };
  }
  const match = datePattern.exec(input);
  if (!match) throw invalid(input, "unknown format");
  const firstDay = parseDay(input, match[1]!);
  const lastDay = parseDay(input, match[2]!);
  if (lastDay < firstDay) throw invalid(input, "the range ends before it starts");
  const span = lastDay - firstDay + 1;
  if (span > maxPeriodDays) throw invalid(input, `the range spans ${span} days`);
  return {
    start: new Date(firstDay * dayMs),
    end: new Date((lastDay + 1) * dayMs - 1),
    firstDay,
    lastDay,
  };
}
