import type { Storage } from "../ports/storage.js";

/**
 * What a store call throws when the storage's tables do not exist: the driver's error (`no such
 * table: mailpulse_organization`, `relation "mailpulse_organization" does not exist`) as its
 * `cause`, under a message that names the fix. In-process callers (`mailpulse.organizations
 * .create(...)` in a script) see it as is; the HTTP handler logs it and answers 500.
 */
export class UnmigratedStorageError extends Error {
  override readonly name = "UnmigratedStorageError";
  constructor(cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(
      `MailPulse: the storage has no MailPulse tables: call \`await storage.migrate()\` once before using it (${detail})`,
      { cause },
    );
  }
}

/**
 * The storage the services use: each store's methods rethrow a "never migrated" error (as the
 * storage's `isUnmigrated` recognises it) as an {@link UnmigratedStorageError}. Every other
 * property and error is the store's own. A storage without `isUnmigrated` is returned unchanged.
 * Each store is a new object whose prototype is the original, so its fields (such as
 * `tracking.concurrentBatches`) read through.
 */
export function withUnmigratedHint(storage: Storage): Storage {
  const isUnmigrated = storage.isUnmigrated?.bind(storage);
  if (isUnmigrated === undefined) return storage;
  const rethrow = (error: unknown): never => {
    throw isUnmigrated(error) ? new UnmigratedStorageError(error) : error;
  };
  const guarded: Record<string, unknown> = Object.create(storage);
  for (const [name, store] of Object.entries(storage)) {
    if (typeof store !== "object" || store === null || name === "rateLimitBackend") continue;
    guarded[name] = guardStore(store as Record<string, unknown>, rethrow);
  }
  return guarded as unknown as Storage;
}

function guardStore(store: Record<string, unknown>, rethrow: (error: unknown) => never): object {
  const guarded: Record<string, unknown> = Object.create(store);
  for (const name of methodNames(store)) {
    guarded[name] = (...args: unknown[]) => {
      let result: unknown;
      try {
        // Looked up at each call, not when wrapped: whatever the store holds now is what runs.
        const method = store[name] as (...args: unknown[]) => unknown;
        result = method.apply(store, args);
      } catch (error) {
        rethrow(error);
      }
      return result instanceof Promise ? result.catch(rethrow) : result;
    };
  }
  return guarded;
}

/** Own and inherited methods (a class instance's live on its prototype), `Object`'s left out. */
function methodNames(store: object): string[] {
  const names = new Set<string>();
  for (
    let level = store;
    level !== null && level !== Object.prototype;
    level = Object.getPrototypeOf(level)
  ) {
    for (const name of Object.getOwnPropertyNames(level)) {
      if (name !== "constructor" && typeof (store as Record<string, unknown>)[name] === "function")
        names.add(name);
    }
  }
  return [...names];
}
