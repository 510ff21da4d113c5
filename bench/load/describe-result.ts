import { count, duration } from "../lib/format.js";
import type { LoadResult } from "./load-spec.js";

/** `27,949 req/s, p99 3.2 ms` plus error counts when there were any: one run's progress line. */
export function describeResult(result: LoadResult): string {
  const problems =
    result.failedStatus + result.socketErrors > 0
      ? `, ${count(result.failedStatus)} bad statuses, ${count(result.socketErrors)} socket errors`
      : "";
  return `${count(result.requestsPerSecond)} req/s, p99 ${duration(result.p99Ms)}${problems}`;
}
