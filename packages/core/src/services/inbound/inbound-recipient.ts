import type { Storage } from "../../ports/storage.js";
import { normalizeAddress } from "../../util/normalize-address.js";
import { findRecipient, type RecipientTarget } from "../feedback/recipient-lookup.js";
import { type RecipientTokenPurpose, readRecipientToken } from "../feedback/recipient-token.js";

/**
 * Who an envelope recipient (RCPT TO) of the inbound receiver is: only addresses of return-path
 * domains are accepted (`send.<platformDomain>`, and `send.<domain>` of a verified sending
 * domain), so the receiver never relays. `bounces+<token>` (a VERP return path) and
 * `unsubscribe+<token>` (the mailto of `List-Unsubscribe`) must carry a token this instance
 * signed for a recipient of an email it still has; any other local part (abuse@, fbl@,
 * postmaster@) is accepted, since feedback loops and people write there.
 */

/** One recipient of one sent email, named by a token (the address as stored, lowercased). */
export type FeedbackRecipient = RecipientTarget;

/** An accepted envelope recipient. */
export interface AcceptedInboundRecipient {
  accepted: true;
  /** The address, lowercased. */
  address: string;
  /** The organization whose verified domain it is at; null at `send.<platformDomain>`. */
  domainOrganizationId: string | null;
  /** What its token is for; null for any other local part. */
  purpose: RecipientTokenPurpose | null;
  /** The recipient its token names; null without a token. */
  target: FeedbackRecipient | null;
}

/** A refused envelope recipient: the SMTP reply to give. */
export interface RefusedInboundRecipient {
  accepted: false;
  code: 550;
  /** Enhanced status code: `5.7.1` (not ours: no relaying), `5.1.1` (no such return path). */
  status: "5.7.1" | "5.1.1";
  message: string;
}

/** What {@link resolveInboundRecipient} says of an envelope recipient. */
export type InboundRecipient = AcceptedInboundRecipient | RefusedInboundRecipient;

/** What {@link resolveInboundRecipient} reads. */
export interface InboundRecipientDeps {
  storage: Pick<Storage, "tracking" | "emails" | "sendingDomains">;
  platformDomain: string;
  signingKey: () => Promise<Uint8Array>;
}

const tokenPrefixes: Record<string, RecipientTokenPurpose> = {
  "bounces+": "return-path",
  "unsubscribe+": "unsubscribe",
};

/**
 * Resolves an envelope recipient. Rejects (storage errors) only when a lookup failed: the
 * receiver answers that with a temporary 451, never a permanent refusal.
 */
export async function resolveInboundRecipient(
  deps: InboundRecipientDeps,
  rawAddress: string,
): Promise<InboundRecipient> {
  const address = normalizeAddress(rawAddress);
  const at = address.lastIndexOf("@");
  const local = at > 0 ? address.slice(0, at) : "";
  const domain = at > 0 ? address.slice(at + 1) : "";
  const domainOrganizationId = await returnPathDomainOwner(deps, domain);
  if (domainOrganizationId === undefined) {
    return refuse("5.7.1", "Relay access denied: this server only accepts mail for its return-path domains");
  }
  const prefix = Object.keys(tokenPrefixes).find((candidate) => local.startsWith(candidate));
  if (!prefix) return { accepted: true, address, domainOrganizationId, purpose: null, target: null };
  const purpose = tokenPrefixes[prefix]!;
  const reference = readRecipientToken(local.slice(prefix.length), purpose, await deps.signingKey());
  if (!reference) return refuse("5.1.1", "No such return path: the address was not issued here");
  const target = await findRecipient(deps.storage, reference);
  if (!target) return refuse("5.1.1", "No such return path: the email it names is no longer kept");
  return { accepted: true, address, domainOrganizationId, purpose, target };
}

/**
 * `null` for `send.<platformDomain>`, the owner's id for `send.<verified domain>`, `undefined`
 * for any other domain.
 */
async function returnPathDomainOwner(
  deps: InboundRecipientDeps,
  domain: string,
): Promise<string | null | undefined> {
  if (!domain.startsWith("send.")) return undefined;
  const base = domain.slice("send.".length);
  if (base === deps.platformDomain.toLowerCase()) return null;
  if (base === "" || base.length > 253) return undefined;
  return deps.storage.sendingDomains.findVerifiedOwner(base);
}

function refuse(status: RefusedInboundRecipient["status"], message: string): RefusedInboundRecipient {
  return { accepted: false, code: 550, status, message };
}
