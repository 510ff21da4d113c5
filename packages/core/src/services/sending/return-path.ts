import type { MessageEnvelope } from "../../ports/mail-provider.js";
import { normalizeAddress } from "../../util/normalize-address.js";
import { createRecipientToken } from "../feedback/recipient-token.js";
import type { RecipientLists } from "./suppression-check.js";

/**
 * The VERP return path of one recipient: `bounces+<token>@<returnPathDomain>`, the token naming
 * the email (its tracking id) and the recipient's index among the email's stored recipients,
 * signed (`createRecipientToken`, purpose `return-path`). A bounce sent to it is attributed to
 * that recipient even when it quotes nothing of the message (docs/deliverability.md).
 */
export function returnPathOf(
  trackingId: string,
  recipientIndex: number,
  key: Uint8Array,
  returnPathDomain: string,
): string {
  const token = createRecipientToken({ trackingId, recipientIndex }, "return-path", key);
  return `bounces+${token}@${returnPathDomain}`;
}

/**
 * One envelope per recipient, each with the recipient's own return path. Indexes follow the
 * stored recipient rows (`recipientRecords`: `to`, then `cc`, then `bcc`, each in order); an
 * address listed twice is sent one copy, under its first index.
 */
export function returnPathEnvelopes(
  lists: RecipientLists,
  trackingId: string,
  key: Uint8Array,
  returnPathDomain: string,
): MessageEnvelope[] {
  const all = [...lists.to, ...(lists.cc ?? []), ...(lists.bcc ?? [])];
  const seen = new Set<string>();
  const envelopes: MessageEnvelope[] = [];
  for (const [index, mailbox] of all.entries()) {
    const normalized = normalizeAddress(mailbox.address);
    if (seen.has(normalized)) continue;
    seen.add(normalized);
    envelopes.push({ from: returnPathOf(trackingId, index, key, returnPathDomain), to: [mailbox.address] });
  }
  return envelopes;
}
