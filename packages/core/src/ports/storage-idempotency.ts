/**
 * Idempotency keys of `POST /api/send` and `POST /api/emails`: the first request with a key claims
 * it, its answer is stored with it, and repeats within the key's lifetime get that answer back
 * instead of a second email (docs/idempotency.md).
 */

/** A stored answer: the HTTP status and the JSON body text. */
export interface StoredResponse {
  status: number;
  body: string;
}

/** A claimed key, as another request with the same key finds it. */
export interface IdempotencyRecord {
  /** Hash of what the first request asked (route and body): a different one is a misuse of the key. */
  fingerprint: string;
  /** Undefined while the first request is still running. */
  response?: StoredResponse;
  createdAt: Date;
  expiresAt: Date;
}

/** The outcome of {@link IdempotencyStore.claim}. */
export type IdempotencyClaim = { claimed: true } | { claimed: false; existing: IdempotencyRecord };

/** Idempotency keys, scoped per organization. */
export interface IdempotencyStore {
  /**
   * Atomically claims `key` for a new request, or returns the record already holding it. A record
   * whose `expiresAt` has passed (at `now`) is replaced as if absent. Two concurrent claims of one
   * key: exactly one gets `claimed: true`.
   */
  claim(
    organizationId: string,
    key: string,
    claim: { fingerprint: string; now: Date; expiresAt: Date },
  ): Promise<IdempotencyClaim>;
  /** The record of `key`, or undefined (expired records included: the caller compares times). */
  get(organizationId: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Stores the answer of the request that claimed `key`. */
  complete(organizationId: string, key: string, response: StoredResponse): Promise<void>;
  /** Frees a claimed key whose request changed nothing (it was refused), so it can be used again. */
  release(organizationId: string, key: string): Promise<void>;
  /** Deletes the records of every organization that expired before `now`; returns how many. */
  purgeExpired(now: Date): Promise<number>;
}
