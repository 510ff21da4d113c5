import { createLruCache } from "../util/lru-cache.js";
import {
  imageProxyOf,
  isApplePrivacyUserAgent,
  type UserAgentSignal,
  userAgentSignal,
} from "./user-agent-signals.js";

/** What the classifier reads from a user agent alone. */
export interface UserAgentFacts {
  /** Apple Mail Privacy Protection's bare `Mozilla/5.0`. */
  applePrivacy: boolean;
  /** The mail provider whose image proxy it names (Gmail, Yahoo Mail, ...), if any. */
  imageProxy: string | undefined;
  /** What it says on its own (scanner, bot, or no user agent at all), if anything. */
  signal: UserAgentSignal | undefined;
}

/**
 * Distinct user agents whose facts are kept. A newsletter's hits come from a few hundred distinct
 * strings (mail clients, image proxies, browsers by version), so one entry serves thousands of
 * hits; a client sending a new string each time only evicts entries, and its hits are worked
 * out as if there were no cache.
 */
const cachedUserAgents = 1_000;

/** Longer strings are worked out each time rather than kept: real ones are a few hundred characters. */
const longestCachedUserAgent = 512;

const cache = createLruCache<string, UserAgentFacts>(cachedUserAgents);

/** The facts of a hit without a user agent, the same every time. */
const noUserAgent = factsOf(null);

/**
 * The {@link UserAgentFacts} of `userAgent`, remembered per distinct string. Why remembered: for
 * a browser's user agent isbot's pattern and the scanner names cost 2.8 µs a hit, about a tenth
 * of a pixel's whole work besides the database (bench/RESULTS.md); a lookup costs a fraction of a
 * microsecond. The facts depend on the string alone, so a remembered answer is never stale.
 */
export function userAgentFactsOf(userAgent: string | null): UserAgentFacts {
  if (userAgent === null) return noUserAgent;
  if (userAgent.length > longestCachedUserAgent) return factsOf(userAgent);
  let facts = cache.get(userAgent);
  if (facts === undefined) {
    facts = factsOf(userAgent);
    cache.set(userAgent, facts);
  }
  return facts;
}

function factsOf(userAgent: string | null): UserAgentFacts {
  return {
    applePrivacy: isApplePrivacyUserAgent(userAgent),
    imageProxy: imageProxyOf(userAgent),
    signal: userAgentSignal(userAgent),
  };
}
