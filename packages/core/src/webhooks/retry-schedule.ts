import type { AttemptOutcome, WebhookRecord } from "../ports/storage.js";

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;

/**
 * Waits after failed attempt 1, 2, ...: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (the
 * schedule Svix publishes). Eight attempts over about 28 hours; after the last, a delivery is dead.
 */
export const defaultRetryDelaysMs: readonly number[] = [
  5 * second,
  5 * minute,
  30 * minute,
  2 * hour,
  5 * hour,
  10 * hour,
  10 * hour,
];

/** A webhook whose deliveries have all failed this long is deactivated. */
export const defaultDisableAfterMs = 5 * day;

/** What an attempt got back, as far as the schedule cares. */
export interface AttemptResult {
  ok: boolean;
  status: number | null;
  /** The receiver's `Retry-After`, in milliseconds from now. */
  retryAfterMs: number | null;
}

/** Options of {@link planNextStep}. */
export interface RetryPolicy {
  retryDelaysMs: readonly number[];
  disableAfterMs: number;
  /** A number in [0, 1): the jitter source (Math.random; fixed in tests). */
  random: () => number;
}

/**
 * What follows an attempt: delivered; retried later (the schedule's delay with +-10% jitter, or
 * the receiver's `Retry-After`, between 1 s and 24 h); or dead (attempts exhausted, or 410 Gone,
 * which also deactivates the webhook). Also the webhook's health: a success clears its failure
 * window; a failure opens one, and deactivates it once the window reaches `disableAfterMs`.
 */
export function planNextStep(
  result: AttemptResult,
  attempt: number,
  webhook: Pick<WebhookRecord, "failingSince">,
  now: Date,
  policy: RetryPolicy,
): Pick<AttemptOutcome, "next" | "webhook"> {
  if (result.ok) return { next: { state: "delivered" }, webhook: { failingSince: null, deactivate: false } };
  const failingSince = webhook.failingSince ?? now;
  const failingTooLong = now.getTime() - failingSince.getTime() >= policy.disableAfterMs;
  if (result.status === 410) return { next: { state: "dead" }, webhook: { failingSince, deactivate: true } };
  const delay = policy.retryDelaysMs[attempt - 1];
  if (delay === undefined)
    return { next: { state: "dead" }, webhook: { failingSince, deactivate: failingTooLong } };
  const jittered = delay * (0.9 + 0.2 * policy.random());
  const wait = result.retryAfterMs === null ? jittered : Math.min(Math.max(result.retryAfterMs, second), day);
  return {
    next: { state: "failed", retryAt: new Date(now.getTime() + Math.round(wait)) },
    webhook: { failingSince, deactivate: failingTooLong },
  };
}
