import type { EmailStatus } from "../../ports/storage.js";

/**
 * Whether opens and clicks of an email in `status` are recorded: `sent`, and `unknown` (a crash
 * left it undecided; it was probably delivered, and its recipients' opens are real).
 */
export function isTrackedStatus(status: EmailStatus): boolean {
  return status === "sent" || status === "unknown";
}
