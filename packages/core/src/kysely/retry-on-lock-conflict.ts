/** PostgreSQL's deadlock and serialization-failure codes; SQLite's "database is busy" codes. */
const retryableCodes = new Set(["40P01", "40001", "SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT"]);

/** Whether the database aborted a transaction for a conflict with another writer (worth retrying). */
export function isLockConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && retryableCodes.has(code);
}

/**
 * Runs `transaction` again when the database aborted it for a lock conflict with a concurrent
 * writer (a tracking batch and a send counting the same contacts), up to `attempts` times with a short
 * randomised pause. Any other error is thrown at once.
 */
export async function retryOnLockConflict<T>(transaction: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isLockConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
