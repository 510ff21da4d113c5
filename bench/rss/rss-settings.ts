/** Knobs of the RSS case, from the environment (the parent passes its environment on). */

/** Sizes of the RSS run. */
export interface RssSettings {
  /** Pixel hits in total (`BENCH_RSS_HITS`, default 1,000,000). */
  hits: number;
  /** Registered emails whose ids the hits cycle through (`BENCH_RSS_EMAILS`, default 10,000). */
  emails: number;
  /**
   * `tracking.cacheSize` (`BENCH_RSS_CACHE`, default 2,000): a fifth of the emails, so the lookup
   * cache is full after the first hits and evicts from then on; RSS must stay flat past that.
   */
  cacheSize: number;
  /** Hits in flight at once, like that many connections (`BENCH_RSS_CONCURRENCY`, default 200). */
  concurrency: number;
}

function integer(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name}=${raw} is invalid: expected a positive integer`);
  return value;
}

/** Reads {@link RssSettings}; throws, naming the variable, on a bad value. */
export function readRssSettings(): RssSettings {
  return {
    hits: integer("BENCH_RSS_HITS", 1_000_000),
    emails: integer("BENCH_RSS_EMAILS", 10_000),
    cacheSize: integer("BENCH_RSS_CACHE", 2_000),
    concurrency: integer("BENCH_RSS_CONCURRENCY", 200),
  };
}
