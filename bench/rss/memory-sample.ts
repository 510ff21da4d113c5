/** One memory reading of the RSS case, after a full garbage collection. */

/** Memory and progress at one point of the run. */
export interface MemorySample {
  hits: number;
  seconds: number;
  /** Hits per second since the previous sample. */
  rate: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** Memory of Buffers and other objects outside the V8 heap. */
  externalBytes: number;
}

/**
 * Collects garbage (the process runs with `--expose-gc`) and reads `process.memoryUsage()`, so
 * the heap figure is what is live, not what the collector has not reached yet.
 */
export function sampleMemory(hits: number, seconds: number, rate: number): MemorySample {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return {
    hits,
    seconds,
    rate,
    rssBytes: usage.rss,
    heapUsedBytes: usage.heapUsed,
    externalBytes: usage.external + usage.arrayBuffers,
  };
}
