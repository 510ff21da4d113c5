import { MailPulseError } from "../errors.js";
import type { StoredResponse } from "../ports/storage.js";
import { requestFingerprint } from "./idempotency/request-fingerprint.js";
import type { ServiceDeps } from "./service-context.js";

/** How long a key is remembered: 24 hours, like Stripe's and Resend's. */
export const idempotencyKeyLifetimeMs = 24 * 60 * 60 * 1000;

// 1 to 256 printable ASCII characters (a header value cannot safely carry more, or less).
const keyPattern = /^[\x20-\x7e]{1,256}$/;

/** An answer of an idempotent operation: fresh, or the stored answer of the first request. */
export interface IdempotentAnswer {
  status: number;
  /** The JSON body text, byte for byte what the first request answered. */
  body: string;
  /** True when this is the stored answer of an earlier request with the key. */
  replayed: boolean;
}

/** Options of {@link createIdempotencyService}. */
export interface IdempotencyOptions {
  /** How long a repeat waits for the first request with its key to finish, before 409. */
  waitMs: number;
  /** A claim without an answer older than this belongs to a process that stopped (a crash). */
  staleAfterMs: number;
}

/** `Idempotency-Key` for the sending routes (docs/idempotency.md). */
export interface IdempotencyService {
  /**
   * Runs `execute` once per (organization, key) within 24 hours, and answers repeats with its
   * stored answer:
   * - a new key (or an expired one): `execute` runs; its answer, or its 5xx error, is stored. A 4xx
   *   error (the request was refused before anything was sent) frees the key and is rethrown.
   * - the same key with another operation or input: 422 IDEMPOTENCY_KEY_REUSED.
   * - the same key while the first request runs: waits up to `waitMs` for its answer, then 409.
   * - the same key whose first request was cut off by a crash: 409 saying so (never a second send).
   * BAD_REQUEST for a key that is not 1 to 256 printable ASCII characters.
   */
  run(
    organizationId: string,
    key: string,
    request: { operation: string; input: unknown; successStatus: number },
    execute: () => Promise<unknown>,
  ): Promise<IdempotentAnswer>;
}

/** Builds the {@link IdempotencyService}. */
export function createIdempotencyService(deps: ServiceDeps, options: IdempotencyOptions): IdempotencyService {
  const keys = deps.storage.idempotencyKeys;
  const { clock } = deps;

  async function runClaimed(
    organizationId: string,
    key: string,
    successStatus: number,
    execute: () => Promise<unknown>,
  ) {
    let answer: StoredResponse;
    try {
      answer = { status: successStatus, body: JSON.stringify((await execute()) ?? {}) };
    } catch (error) {
      if (!(error instanceof MailPulseError) || error.status >= 500) {
        // It may have sent (a delivery failure, a database failure after the provider took the
        // message): the key keeps this answer, so a retry cannot send a second time.
        const message = error instanceof MailPulseError ? error.message : "Internal server error";
        await keys.complete(organizationId, key, {
          status: error instanceof MailPulseError ? error.status : 500,
          body: JSON.stringify({ error: message }),
        });
      } else {
        await keys.release(organizationId, key);
      }
      throw error;
    }
    await keys.complete(organizationId, key, answer);
    return { ...answer, replayed: false };
  }

  return {
    async run(organizationId, key, { operation, input, successStatus }, execute) {
      if (!keyPattern.test(key)) {
        throw new MailPulseError(
          "BAD_REQUEST",
          "Idempotency-Key must be 1 to 256 printable ASCII characters",
        );
      }
      const fingerprint = requestFingerprint(operation, input);
      // Real time, not the injected clock: a test's frozen clock must not make a repeat wait for ever.
      const giveUpAt = performance.now() + options.waitMs;
      let pause = 20;
      for (;;) {
        const now = clock.now();
        const claim = await keys.claim(organizationId, key, {
          fingerprint,
          now,
          expiresAt: new Date(now.getTime() + idempotencyKeyLifetimeMs),
        });
        if (claim.claimed) return runClaimed(organizationId, key, successStatus, execute);
        const { existing } = claim;
        if (existing.fingerprint !== fingerprint) {
          throw new MailPulseError(
            "IDEMPOTENCY_KEY_REUSED",
            "This Idempotency-Key was already used with another request body (or route); use a new key for a new request",
          );
        }
        if (existing.response) return { ...existing.response, replayed: true };
        if (now.getTime() - existing.createdAt.getTime() > options.staleAfterMs) {
          throw new MailPulseError(
            "CONFLICT",
            "The first request with this Idempotency-Key was interrupted (the server stopped while sending): it may have sent the email, so it is not sent again. Check GET /api/emails/:id, or use a new key",
          );
        }
        if (performance.now() >= giveUpAt) {
          throw new MailPulseError(
            "CONFLICT",
            "A request with this Idempotency-Key is still in progress; retry after it finishes",
          );
        }
        // Polling the store, not an in-process promise: the first request may run in another process.
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, 250);
      }
    },
  };
}
