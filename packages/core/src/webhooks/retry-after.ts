/** Retry-After in seconds: digits only (RFC 9110 `delay-seconds`). */
const delaySecondsPattern = /^\d+$/;

/** `Sun, 06 Nov 1994 ...`, `Sunday, 06-Nov-94 ...` or `Sun Nov  6 ...` (RFC 9110, 5.6.7). */
const httpDatePattern = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,? /i;

/**
 * How long a receiver asked us to wait, in milliseconds, from its `Retry-After` header: either
 * delay-seconds (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`, counted from `nowMs`;
 * a date already past means 0). `null` when the header is absent or is neither form, so the
 * caller falls back to its own backoff. No upper bound is applied here: capping is the retry
 * policy's call.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (delaySecondsPattern.test(text)) return Number(text) * 1000;
  // Date.parse also takes ISO and other forms (some read as local time); an HTTP date, in any of
  // its three historical formats, starts with the day of the week.
  if (!httpDatePattern.test(text)) return null;
  // HTTP dates are GMT; asctime's form does not say so, and Date.parse would read it as local time.
  const at = Date.parse(/GMT$/i.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
