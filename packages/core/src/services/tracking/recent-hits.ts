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
  /**
   * The message's hits within the window, oldest first. The store's own list, valid until the
   * next `add`: read it, do not keep it.
   */
  of(emailId: string, now: number): readonly EarlierHit[];
  /** How many of the message's hits (as of the last `of`) are judged human: 0 means no revision can apply. */
  humansOf(emailId: string): number;
  add(emailId: string, hit: EarlierHit): void;
  /** Replaces the verdict of one of the message's hits (a human one a later hit revealed as a machine's). */
  revise(emailId: string, hit: EarlierHit, verdict: EarlierHit["verdict"]): void;
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

const noHits: readonly EarlierHit[] = Object.freeze([]);

/** A message's remembered hits, oldest first, and how many of them are judged human. */
interface MessageHits {
  hits: EarlierHit[];
  humans: number;
}

/**
 * Builds {@link RecentHits}. Hits arrive in time order, so each message's list is kept oldest
 * first and trimmed from the front, and its human hits are counted as they come and go: a lookup,
 * and the question "is there anything to revise?", cost nothing per remembered hit. (Filtering
 * copies and scanning for human hits cost a tenth of a tracking request on a message hit
 * fifty times in two minutes.)
 */
export function createRecentHits(options: RecentHitsOptions): RecentHits {
  const cache = createLruCache<string, MessageHits>(options.messages);
  const perMessage = options.hitsPerMessage ?? 50;
  const windowMs = options.windowMs ?? 120_000;
  /** Drops the first `count` hits. */
  function drop(message: MessageHits, count: number): void {
    for (let index = 0; index < count; index++) {
      if (!message.hits[index]!.verdict.machine) message.humans--;
    }
    message.hits.splice(0, count);
  }
  /** Drops the hits older than the window as of `now` (those at the front). */
  function trim(message: MessageHits, now: number): void {
    let expired = 0;
    while (expired < message.hits.length && now - message.hits[expired]!.at > windowMs) expired++;
    if (expired > 0) drop(message, expired);
  }
  return {
    of(emailId, now) {
      const message = cache.get(emailId);
      if (!message) return noHits;
      trim(message, now);
      return message.hits;
    },
    humansOf(emailId) {
      return cache.get(emailId)?.humans ?? 0;
    },
    add(emailId, hit) {
      const human = hit.verdict.machine ? 0 : 1;
      const message = cache.get(emailId);
      if (!message) {
        cache.set(emailId, { hits: [hit], humans: human });
        return;
      }
      trim(message, hit.at);
      message.hits.push(hit);
      message.humans += human;
      if (message.hits.length > perMessage) drop(message, message.hits.length - perMessage);
    },
    revise(emailId, hit, verdict) {
      const message = cache.get(emailId);
      if (message?.hits.includes(hit))
        message.humans += (verdict.machine ? 0 : 1) - (hit.verdict.machine ? 0 : 1);
      hit.verdict = verdict;
    },
  };
}
