import type { EmailStatus } from "../../ports/storage.js";

/**
 * Whether opens and clicks of an email in `status` are recorded: `sent`, `unknown` (a crash
 * left it undecided; it was probably delivered, and its recipients' opens are real) and `bounced`
 * (it was sent; a `cc` may still read it). The same statuses as the store's `countedEmailStatuses`.
 */
export function isTrackedStatus(status: EmailStatus): boolean {
  return status === "sent" || status === "unknown" || status === "bounced";
}
