import { MailPulseError } from "../../errors.js";
import type { MailAddress } from "../../ports/mail-provider.js";
import type { SuppressedRecipientRecord, SuppressionReason, SuppressionStore } from "../../ports/storage.js";
import { normalizeAddress } from "../../util/normalize-address.js";

/** The recipient lists of a send or registration. */
export interface RecipientLists {
  to: MailAddress[];
  cc?: MailAddress[];
  bcc?: MailAddress[];
}

/** What the suppression list leaves of a message's recipients. */
export interface SuppressionOutcome {
  /** The recipients to send to, in the caller's order. */
  kept: { to: MailAddress[]; cc: MailAddress[]; bcc: MailAddress[] };
  /** The recipients dropped, `to` then `cc` then `bcc`, each in the caller's order. */
  dropped: SuppressedRecipientRecord[];
}

/**
 * Splits the recipients into those to send to and those on the organization's suppression list,
 * with one query for all of them (docs/deliverability.md, "Suppression list").
 */
export async function applySuppressionList(
  store: SuppressionStore,
  organizationId: string,
  lists: RecipientLists,
): Promise<SuppressionOutcome> {
  const kinds = ["to", "cc", "bcc"] as const;
  const all = kinds.flatMap((kind) => lists[kind] ?? []);
  const found = await store.findByAddresses(
    organizationId,
    all.map((mailbox) => mailbox.address),
  );
  const reasons = new Map<string, SuppressionReason>(found.map((entry) => [entry.address, entry.reason]));
  const kept: SuppressionOutcome["kept"] = { to: [], cc: [], bcc: [] };
  const dropped: SuppressedRecipientRecord[] = [];
  for (const kind of kinds) {
    for (const mailbox of lists[kind] ?? []) {
      const address = normalizeAddress(mailbox.address);
      const reason = reasons.get(address);
      if (reason === undefined) kept[kind].push(mailbox);
      else dropped.push({ kind, address, reason });
    }
  }
  return { kept, dropped };
}

/**
 * The 422 of a message whose every `to` is suppressed: names them with their reasons, and the
 * email kept with status `suppressed` (the caller's handle on it, as a failed send's 500 gives).
 */
export function allRecipientsSuppressed(
  dropped: readonly SuppressedRecipientRecord[],
  emailId: string,
): MailPulseError {
  const named = dropped
    .filter((recipient) => recipient.kind === "to")
    .map((recipient) => `${recipient.address} (${recipient.reason})`);
  return new MailPulseError(
    "RECIPIENTS_SUPPRESSED",
    `Every "to" recipient is on the suppression list: ${named.join(", ")}; nothing was sent (email ${emailId})`,
  );
}
