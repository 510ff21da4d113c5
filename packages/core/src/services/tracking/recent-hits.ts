import type { EarlierHit } from "../../measurement/hit-verdict.js";
import { createLruCache } from "../../util/lru-cache.js";

/**
 * The recent hits of each message, in memory, so a new hit is judged on the message's earlier
 * hits without reading history on the hot path. The patterns look back at most a minute
 * (docs/measurement.md), so hits older than `windowMs` are dropped; bounded in messages (least
 * recently hit first out) and in hits per message. Per process: hits another process recorded are
 * not seen here, which re-classification (`mailpulse reclassify`) makes up for.
 */
export interface RecentHits {
  /** The message's hits within the window, oldest first. */
  of(emailId: string, now: number): EarlierHit[];
  add(emailId: string, hit: EarlierHit): void;
}

/** Options of {@link createRecentHits}. */
export interface RecentHitsOptions {
  /** Messages remembered at most. */
  messages: number;
  /** Hits kept per message at most (the newest). Default 50. */
  hitsPerMessage?: number;
  /** How far back hits are kept, in milliseconds. Default 120,000. */
  windowMs?: number;
}

/** Builds {@link RecentHits}. */
export function createRecentHits(options: RecentHitsOptions): RecentHits {
  const cache = createLruCache<string, EarlierHit[]>(options.messages);
  const perMessage = options.hitsPerMessage ?? 50;
  const windowMs = options.windowMs ?? 120_000;
  return {
    of(emailId, now) {
      return (cache.get(emailId) ?? []).filter((hit) => now - hit.at <= windowMs);
    },
    add(emailId, hit) {
      const kept = (cache.get(emailId) ?? []).filter((other) => hit.at - other.at <= windowMs);
      kept.push(hit);
      cache.set(emailId, kept.length > perMessage ? kept.slice(-perMessage) : kept);
    },
  };
}
