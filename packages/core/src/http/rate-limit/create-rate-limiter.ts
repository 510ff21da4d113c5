import {
  type IRateLimiterOptions,
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  RateLimiterSQLite,
} from "rate-limiter-flexible";
import type { Logger } from "../../logger.js";
import type { RateLimitBackend } from "../../ports/storage.js";
import type { RateLimitQuota, RateLimitStore } from "./rate-limit-options.js";

/** What one request's check found. */
export interface RateLimitOutcome {
  allowed: boolean;
  /** Requests left in the current window. */
  remaining: number;
  /** Seconds until the window resets (at least 1 when the request was refused). */
  resetSeconds: number;
}

/** Counts requests per key against one quota. */
export interface RateLimiter {
  readonly quota: RateLimitQuota;
  /** Counts one request of `key`; never rejects (a failing store falls back to memory). */
  consume(key: string): Promise<RateLimitOutcome>;
}

/** The table `0006_rate_limit` creates. */
const tableName = "mailpulse_rate_limit";

/** How often a failing store is logged at most: once per minute, not once per request. */
const storeFailureLogIntervalMs = 60_000;

/**
 * Builds a {@link RateLimiter} on `rate-limiter-flexible`'s store for `store`: its SQLite or
 * PostgreSQL store over the storage's own connection, its memory store, or its Redis store.
 * When the store fails (database down, Redis unreachable), the request is counted by a
 * per-process memory limiter instead and the failure is logged, rather than refusing every request.
 */
export function createRateLimiter(options: {
  quota: RateLimitQuota;
  store: RateLimitStore;
  backend: RateLimitBackend | undefined;
  /** Distinguishes limiters sharing one table (`api`, `tracking`). */
  keyPrefix: string;
  logger: Logger;
}): RateLimiter {
  const { quota, logger } = options;
  const base: IRateLimiterOptions = {
    points: quota.limit,
    duration: Math.max(1, Math.ceil(quota.windowMs / 1000)),
    keyPrefix: options.keyPrefix,
  };
  const fallback = new RateLimiterMemory(base);
  const primary = storeLimiter(options.store, options.backend, base, logger) ?? fallback;
  let lastFailureLoggedAt = Number.NEGATIVE_INFINITY;

  return {
    quota,
    async consume(key) {
      try {
        return outcomeOf(await primary.consume(key), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return outcomeOf(rejection, false);
        const now = Date.now();
        if (now - lastFailureLoggedAt >= storeFailureLogIntervalMs) {
          lastFailureLoggedAt = now;
          logger.error(
            "MailPulse: the rate limit's store failed; counting in this process's memory",
            rejection,
          );
        }
        try {
          return outcomeOf(await fallback.consume(key), true);
        } catch (fallbackRejection) {
          if (fallbackRejection instanceof RateLimiterRes) return outcomeOf(fallbackRejection, false);
          throw fallbackRejection;
        }
      }
    },
  };
}

function storeLimiter(
  store: RateLimitStore,
  backend: RateLimitBackend | undefined,
  base: IRateLimiterOptions,
  logger: Logger,
): RateLimiterAbstract | undefined {
  if (store === "memory") return undefined;
  if (typeof store === "object") {
    return new RateLimiterRedis({
      ...base,
      storeClient: store.redis,
      ...(store.useRedisPackage ? { useRedisPackage: true } : {}),
    });
  }
  if (backend === undefined) {
    logger.info(
      "MailPulse: this storage offers no rate-limit table; the rate limit counts in this process's memory",
    );
    return undefined;
  }
  // The table comes from migration 0006, so neither store creates one (nor needs DDL rights).
  // No purge timer: a key's row is reused once its window expired, so the table holds one row per
  // API key that was used, and the library's timer would outlive a closed storage (on SQLite its
  // failure would be an unhandled rejection).
  if (backend.kind === "better-sqlite3") {
    return new RateLimiterSQLite({
      ...base,
      storeClient: backend.database,
      storeType: "better-sqlite3",
      tableName,
      tableCreated: true,
      clearExpiredByTimeout: false,
    });
  }
  return new RateLimiterPostgres({
    ...base,
    storeClient: backend.pool,
    storeType: "pool",
    tableName,
    ...(backend.schema ? { schemaName: backend.schema } : {}),
    tableCreated: true,
    clearExpiredByTimeout: false,
  });
}

function outcomeOf(result: RateLimiterRes, allowed: boolean): RateLimitOutcome {
  const resetSeconds = Math.ceil(Math.max(result.msBeforeNext, 0) / 1000);
  return {
    allowed,
    remaining: Math.max(result.remainingPoints, 0),
    resetSeconds: allowed ? resetSeconds : Math.max(resetSeconds, 1),
  };
}
