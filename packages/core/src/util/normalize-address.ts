/**
 * An email address as MailPulse compares and stores it where case must not matter (recipient
 * rows, contacts, the suppression list): trimmed and lowercased, the whole address. The local
 * part is case-sensitive in theory (RFC 5321) and never in practice; one rule everywhere means a
 * suppressed `Ann@Example.com` is never sent to as `ann@example.com`.
 */
export function normalizeAddress(address: string): string {
  return address.trim().toLowerCase();
}
