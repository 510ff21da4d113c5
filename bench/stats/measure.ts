/** Median wall-clock timing of async calls. */
import { performance } from "node:perf_hooks";

/** Unmeasured calls first (JIT, statement caches, pages into memory), then measured ones. */
export const warmupRuns = 3;
export const measuredRuns = 20;

/** The median of `samples`. */
export function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Median milliseconds of `task` over {@link measuredRuns} sequential calls after the warm-up. */
export async function measureAsync(task: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < warmupRuns; i++) await task();
  const samples: number[] = [];
  for (let i = 0; i < measuredRuns; i++) {
    const started = performance.now();
    await task();
    samples.push(performance.now() - started);
  }
  return median(samples);
}
