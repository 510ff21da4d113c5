/**
 * Interleaved repetitions: baseline, candidate, baseline, candidate, ... so that a slow drift of
 * the machine (another process waking up, thermal limits, a growing database) lands on both sides
 * instead of on whichever ran last. Medians of the repetitions then ignore one disturbed run.
 */
import type { LoadResult } from "../load/load-spec.js";
import { median } from "./median.js";

/** One side of a comparison. */
export interface Contender<T extends LoadResult> {
  name: string;
  /** One complete run (start, load, stop, check); `repetition` counts from 1. */
  run(repetition: number): Promise<T>;
}

/** A contender's runs and their medians. */
export interface ContenderResult<T extends LoadResult> {
  name: string;
  runs: T[];
  medianRequestsPerSecond: number;
  medianP99Ms: number;
}

/**
 * Runs every contender once per round, in the given order, for `repetitions` rounds; returns
 * them in the same order with medians. `onRun` hears about each run as it ends (progress lines).
 */
export async function interleave<T extends LoadResult>(
  contenders: readonly Contender<T>[],
  repetitions: number,
  onRun: (contender: string, repetition: number, result: T) => void,
): Promise<ContenderResult<T>[]> {
  const runs = contenders.map(() => [] as T[]);
  for (let repetition = 1; repetition <= repetitions; repetition++) {
    for (const [index, contender] of contenders.entries()) {
      const result = await contender.run(repetition);
      runs[index]!.push(result);
      onRun(contender.name, repetition, result);
    }
  }
  return contenders.map((contender, index) => ({
    name: contender.name,
    runs: runs[index]!,
    medianRequestsPerSecond: median(runs[index]!.map((run) => run.requestsPerSecond)),
    medianP99Ms: median(runs[index]!.map((run) => run.p99Ms)),
  }));
}

/**
 * The median, over rounds, of `candidate`'s req/s over `baseline`'s in the same round. The two
 * runs of a round are seconds apart, so a machine that slows down for a minute (a noisy neighbour
 * of a VM) moves both; the ratio of medians can pair a fast round of one with a slow round of the
 * other.
 */
export function medianPairedRatio<T extends LoadResult>(
  baseline: ContenderResult<T>,
  candidate: ContenderResult<T>,
): number {
  const rounds = Math.min(baseline.runs.length, candidate.runs.length);
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    ratios.push(candidate.runs[round]!.requestsPerSecond / baseline.runs[round]!.requestsPerSecond);
  }
  return median(ratios);
}

/**
 * How far a contender's runs spread: its fastest run's req/s over its slowest's (1 when they
 * agree). A bare route does the same work every run, so a wide spread on the baseline is the
 * machine changing speed during the comparison, not the code.
 */
export function requestRateSpread<T extends LoadResult>(result: ContenderResult<T>): number {
  const rates = result.runs.map((run) => run.requestsPerSecond);
  return Math.max(...rates) / Math.min(...rates);
}
