/**
 * The log line for an error the pipeline did not expect, with the fix spelled out where the cause
 * is a setup mistake rather than a bug: a storage whose tables were never created answers every
 * query with "no such table" (SQLite) or 42P01 (PostgreSQL), and the host developer should read
 * "call await storage.migrate()", not a driver message.
 */
export function describeUnexpected(error: unknown, where: string): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : "";
  const missingTable =
    code === "42P01" || (code === "SQLITE_ERROR" && /no such table: mailpulse_/.test(message));
  if (missingTable) {
    return `MailPulse: the storage has no MailPulse tables (on ${where}): call \`await storage.migrate()\` before serving requests`;
  }
  return `MailPulse: unexpected error on ${where}`;
}
