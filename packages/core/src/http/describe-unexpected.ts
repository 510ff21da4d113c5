/**
 * The log line for an error the pipeline did not expect, with the fix spelled out where the cause
 * is a setup mistake rather than a bug: a storage whose tables were never created answers every
 * query with a driver's "no such table", and the host developer should read "call await
 * storage.migrate()", not the driver's message. Which errors say so is the storage's knowledge
 * (`Storage.isUnmigrated`, from its dialect), never a driver code spelled here.
 */
export function describeUnexpected(
  error: unknown,
  where: string,
  isUnmigrated: ((error: unknown) => boolean) | undefined,
): string {
  if (isUnmigrated?.(error)) {
    return `MailPulse: the storage has no MailPulse tables (on ${where}): call \`await storage.migrate()\` before serving requests`;
  }
  return `MailPulse: unexpected error on ${where}`;
}
