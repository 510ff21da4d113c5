/** A quota: at most `limit` requests per `windowMs` milliseconds (a fixed window). */
export interface RateLimitQuota {
  limit: number;
  windowMs: number;
}

/**
 * Where the API's rate limit keeps its counters.
 * - `"storage"` (default): in the storage's database (`mailpulse_rate_limit`), so every process
 *   on one SQLite file or PostgreSQL database shares one quota per key. Storages without a
 *   `rateLimitBackend` fall back to `"memory"` (logged once).
 * - `"memory"`: in this process only; right for a single-process host, and the fastest.
 * - `{ redis }`: a Redis client (ioredis, or node-redis with `useRedisPackage: true`): the choice
 *   at high request rates, where a database write per request costs too much.
 */
export type RateLimitStore = "storage" | "memory" | { redis: unknown; useRedisPackage?: boolean };

/** `createMailPulse({ rateLimit })`: the API's rate limit, per API key. */
export interface RateLimitOptions extends Partial<RateLimitQuota> {
  /** Requests per window and API key. Default 600. */
  limit?: number;
  /** The window in milliseconds. Default 60,000 (one minute). */
  windowMs?: number;
  /** Where the counters live. Default `"storage"`. */
  store?: RateLimitStore;
  /**
   * A separate limit per client IP address for the public tracking routes (pixel and click),
   * which have no key. Off by default: a mail provider's image proxy fetches pixels for many
   * recipients from a few addresses. Counted in memory.
   */
  trackingPerIp?: RateLimitQuota;
}

/** The defaults of {@link RateLimitOptions}. */
export const defaultRateLimit: RateLimitQuota = { limit: 600, windowMs: 60_000 };
