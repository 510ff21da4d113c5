import type { RateLimitOutcome } from "./create-rate-limiter.js";
import type { RateLimitQuota } from "./rate-limit-options.js";

/**
 * The IETF httpapi `RateLimit-Policy` and `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers,
 * structured-field syntax) for one answer: `RateLimit-Policy: "default";q=600;w=60` names the quota
 * and its window in seconds, `RateLimit: "default";r=599;t=42` the requests remaining and the
 * seconds until the window resets. A refused request also gets `Retry-After`.
 */
export function rateLimitHeaders(quota: RateLimitQuota, outcome: RateLimitOutcome): Record<string, string> {
  const windowSeconds = Math.max(1, Math.ceil(quota.windowMs / 1000));
  return {
    "ratelimit-policy": `"default";q=${quota.limit};w=${windowSeconds}`,
    ratelimit: `"default";r=${outcome.remaining};t=${outcome.resetSeconds}`,
    ...(outcome.allowed ? {} : { "retry-after": String(outcome.resetSeconds) }),
  };
}
