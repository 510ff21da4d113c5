/** The SQLSTATE of a `pg` error, if it has one. */
function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** Deadlock detected, serialization failure: PostgreSQL aborted one of two conflicting writers. */
const conflictCodes = new Set(["40P01", "40001"]);

/** `MailPulseDialect.isLockConflict` on `pg`. */
export function isPostgresLockConflict(error: unknown): boolean {
  const code = codeOf(error);
  return typeof code === "string" && conflictCodes.has(code);
}

/** `MailPulseDialect.isMissingTable` on `pg`: SQLSTATE 42P01, undefined_table. */
export function isPostgresMissingTable(error: unknown): boolean {
  return codeOf(error) === "42P01";
}

/** `MailPulseDialect.isUniqueViolation` on `pg`: SQLSTATE 23505, unique_violation. */
export function isPostgresUniqueViolation(error: unknown): boolean {
  return codeOf(error) === "23505";
}
