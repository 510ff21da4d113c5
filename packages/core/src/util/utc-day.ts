/**
 * UTC day numbers (days since the epoch). The daily rollup is written with these and the
 * statistics periods read with them, so both sides must share one definition.
 */

/** Milliseconds in a UTC day. */
export const dayMs = 86_400_000;

/** The UTC day number of an epoch-millisecond instant. */
export function utcDayOf(epochMs: number): number {
  return Math.floor(epochMs / dayMs);
}

/** `YYYY-MM-DD` of a UTC day number. */
export function utcDayToIsoDate(day: number): string {
  return new Date(day * dayMs).toISOString().slice(0, 10);
}
