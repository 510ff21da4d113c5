/** Conversions between rows and domain values shared by the Kysely stores. */

/** A BIGINT epoch-millisecond column (number in SQLite, string in pg) as a Date. */
export function toDate(value: number | string | bigint): Date {
  return new Date(Number(value));
}

/** Like {@link toDate}, keeping null. */
export function toDateOrNull(value: number | string | bigint | null): Date | null {
  return value === null ? null : toDate(value);
}

/** A COUNT/SUM result (string in pg, number in SQLite, null for SUM over no rows) as a number. */
export function toCount(value: number | string | bigint | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}
