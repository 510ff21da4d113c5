import type { LinkRecord, TrackedEmail, TrackedLinkTarget, TrackingStore } from "../../ports/storage.js";
import { createBatchLoader } from "../../util/batch-loader.js";
import { createLruCache } from "../../util/lru-cache.js";
import { isTrackedStatus } from "./counted-status.js";

/**
 * Tracking id -> email and link id -> URL, served from memory when possible. Both mappings are
 * immutable once an email is `sent`, so a cached entry never goes stale, in this process or any
 * other sharing the database. Emails not yet `sent` are never cached (their status still moves).
 */
export interface TrackingLookups {
  /** The email with this open-tracking id, or `undefined`. */
  email(trackingId: string): Promise<TrackedEmail | undefined>;
  /** The link with this tracking id and its email, or `undefined`. */
  link(linkId: string): Promise<TrackedLinkTarget | undefined>;
  /** Caches a just-sent email and its links, so the first opens and clicks skip the database. */
  remember(email: TrackedEmail, links: readonly LinkRecord[]): void;
}

/**
 * Builds {@link TrackingLookups} holding at most `cacheSize` emails and as many links. Misses of one
 * event-loop turn are looked up together, in one storage call. Unknown ids
 * are remembered too, in caches a tenth that size, so a client repeating a bad id does not reach
 * the database every time. That is safe because an email's ids are stored before its message
 * leaves: an id unknown now was never handed out.
 */
export function createTrackingLookups(store: TrackingStore, cacheSize: number): TrackingLookups {
  const emails = cachedLookup(
    createBatchLoader(async (ids) => byKey(await store.findEmails(ids), (email) => email.trackingId)),
    (email) => email,
    cacheSize,
  );
  const links = cachedLookup(
    createBatchLoader(async (ids) => byKey(await store.findLinks(ids), (link) => link.id)),
    (link) => link.email,
    cacheSize,
  );
  return {
    email: emails.get,
    link: links.get,
    remember(email, emailLinks) {
      if (!isTrackedStatus(email.status)) return;
      emails.set(email.trackingId, email);
      for (const link of emailLinks) links.set(link.id, { id: link.id, url: link.url, email });
    },
  };
}

function byKey<T>(values: readonly T[], keyOf: (value: T) => string): Map<string, T> {
  return new Map(values.map((value) => [keyOf(value), value]));
}

function cachedLookup<T>(
  find: (id: string) => Promise<T | undefined>,
  emailOf: (value: T) => TrackedEmail,
  capacity: number,
) {
  const known = createLruCache<string, T>(capacity);
  const unknown = createLruCache<string, true>(Math.ceil(capacity / 10));
  return {
    async get(id: string): Promise<T | undefined> {
      const cached = known.get(id);
      if (cached !== undefined) return cached;
      if (unknown.get(id)) return undefined;
      const found = await find(id);
      if (found === undefined) unknown.set(id, true);
      else if (isTrackedStatus(emailOf(found).status)) known.set(id, found);
      return found;
    },
    set: known.set,
  };
}
