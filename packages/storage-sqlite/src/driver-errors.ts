/** The code of a driver error (better-sqlite3's `SqliteError.code`), if it has one. */
function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/**
 * SQLite's "database is busy" codes: another connection (the background checkpoint, another
 * process) held the write lock past `busy_timeout`. Worth retrying.
 */
const busyCodes = new Set(["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT"]);

/** `MailPulseDialect.isLockConflict` on better-sqlite3. */
export function isSqliteLockConflict(error: unknown): boolean {
  const code = codeOf(error);
  return typeof code === "string" && busyCodes.has(code);
}

/** `MailPulseDialect.isMissingTable` on better-sqlite3: a query named a MailPulse table never created. */
export function isSqliteMissingTable(error: unknown): boolean {
  return codeOf(error) === "SQLITE_ERROR" && /no such table: mailpulse_/.test((error as Error).message);
}

/** `MailPulseDialect.isUniqueViolation` on better-sqlite3: a UNIQUE or PRIMARY KEY constraint. */
export function isSqliteUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}
