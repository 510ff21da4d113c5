import type { Storage } from "@mailpulse/core";

/**
 * `storage` with a tracking write that records nothing: `recordEvents` resolves at once. Lookups,
 * classification, the queue, group commit and the answer all still run; only the transaction is
 * gone. The bench's ceiling contender (`skipTrackingWrites`), nothing a host should ever run.
 *
 * Delegation through the prototype chain, not a spread, so a storage whose methods are getters
 * or read `this` keeps working.
 */
export function withoutTrackingWrites(storage: Storage): Storage {
  const tracking: Storage["tracking"] = Object.create(storage.tracking);
  tracking.recordEvents = async (hits) => hits.length;
  const wrapped: Storage = Object.create(storage);
  wrapped.tracking = tracking;
  return wrapped;
}
