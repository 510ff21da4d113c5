/** A percentage `part / whole * 100` rounded to two decimals; 0 when `whole` is 0. */
export function percentage(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100;
}

/** A ratio `part / whole` rounded to four decimals; 0 when `whole` is 0. */
export function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}
