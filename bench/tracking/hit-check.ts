/** The check after every MailPulse run: every answered hit was recorded, and rollups agree. */
import { count } from "../lib/format.js";
import type { RecordedHits } from "./recorded.js";

/** What one run answered and recorded. */
export interface HitCheck {
  /** 200s (pixel) or 302s (click) the load generator received in full, warm-up included. */
  answered: number;
  /** Event rows the run added. */
  recorded: number;
  /** What the run added to the rollup counters (must equal `recorded`). */
  counted: number;
  /**
   * Recorded beyond the answered: requests in flight when the load generator stopped, which the
   * server recorded but whose answer nobody read. At most the connections of each load run.
   */
  unanswered: number;
  /** `ok`, or what is wrong. */
  verdict: string;
}

/**
 * Compares the counts before and after a run. `maxInFlight` is how many hits may have been
 * recorded without their answer being counted (connections times load runs): wrk and autocannon
 * stop at the deadline without reading the answers of requests still in flight.
 */
export function checkHits(
  before: RecordedHits,
  after: RecordedHits,
  answered: number,
  maxInFlight: number,
): HitCheck {
  const recorded = after.events - before.events;
  const counted = after.counters - before.counters;
  const unanswered = recorded - answered;
  const problems: string[] = [];
  if (recorded < answered) problems.push(`LOST ${count(answered - recorded)} answered hits`);
  if (unanswered > maxInFlight) problems.push(`${count(unanswered)} more recorded than sent`);
  if (counted !== recorded) problems.push(`counters ${count(counted)} != events ${count(recorded)}`);
  return { answered, recorded, counted, unanswered, verdict: problems.join("; ") || "ok" };
}

/** `recorded 40,123 = answered 40,100 + 23 in flight: ok` */
export function describeCheck(check: HitCheck): string {
  return (
    `recorded ${count(check.recorded)} (counters ${count(check.counted)}), ` +
    `answered ${count(check.answered)}, in flight at stop ${count(check.unanswered)}: ${check.verdict}`
  );
}
