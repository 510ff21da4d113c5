/**
 * Runs `transaction` again when the database aborted it for a lock conflict with a concurrent
 * writer (a tracking batch and a send counting the same contacts), as `isLockConflict` (the
 * dialect's, `MailPulseDialect.isLockConflict`) recognises one, up to `attempts` times with a
 * short randomised pause. Any other error is thrown at once.
 */
export async function retryOnLockConflict<T>(
  transaction: () => Promise<T>,
  isLockConflict: (error: unknown) => boolean,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isLockConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
