import { domainToASCII } from "node:url";
import type { DkimKey, MailAddress } from "../../ports/mail-provider.js";
import type { SendingDomainStore } from "../../ports/storage.js";

/** Who an email is sent as, and where replies go. */
export interface SenderDecision {
  from: MailAddress;
  replyTo: MailAddress | undefined;
  dkim: DkimKey | undefined;
  /**
   * The domain of the message's return path (`bounces+<token>@...`, docs/deliverability.md) and
   * of its unsubscribe mailto: `send.<domain>` of a verified sending domain (its SPF record and
   * MX are published there, docs/domains.md), else `send.<platformDomain>`.
   */
  returnPathDomain: string;
}

/**
 * Which `From` addresses go out as given (`sending.fromAddresses`, docs/sending.md):
 * - `"rewrite-unverified"` (default, the spec's rule): only those at a verified sending domain of
 *   the organization; any other is rewritten to `send.<platformDomain>` (see {@link decideSender}).
 * - `"as-given"`: every one, for a single-tenant host whose own relay is allowed to send for its
 *   domains (SPF, DKIM at the relay). Verified domains still DKIM-sign with MailPulse's key.
 */
export type FromAddressPolicy = "rewrite-unverified" | "as-given";

/**
 * The spec's sender rule: a verified sending domain of the organization is used as given (and
 * DKIM-signs); any other domain is replaced by the same local part at `send.<platformDomain>`,
 * keeping the display name, with Reply-To set to the original address unless the caller set one.
 */
export async function decideSender(
  domains: SendingDomainStore,
  organizationId: string,
  from: MailAddress,
  replyTo: MailAddress | undefined,
  platformDomain: string,
  /** Opens the stored private key (sealed at rest when an `encryptionKey` is set). */
  openPrivateKey: (stored: string) => string = (stored) => stored,
  policy: FromAddressPolicy = "rewrite-unverified",
): Promise<SenderDecision> {
  const at = from.address.lastIndexOf("@");
  const local = from.address.slice(0, at);
  // Sending domains are stored in punycode (docs/domains.md): compare in the same form.
  const written = from.address.slice(at + 1).toLowerCase();
  const domain = domainToASCII(written) || written;
  const verified = await domains.findVerified(organizationId, domain);
  if (verified) {
    return {
      from,
      replyTo,
      dkim: {
        domainName: verified.domain,
        keySelector: verified.dkimSelector,
        privateKey: openPrivateKey(verified.dkimPrivateKey),
      },
      returnPathDomain: `send.${verified.domain}`,
    };
  }
  // The return path stays on the platform's domain: that is where the inbound receiver's MX is.
  if (policy === "as-given")
    return { from, replyTo, dkim: undefined, returnPathDomain: `send.${platformDomain}` };
  const rewritten: MailAddress = { ...from, address: `${local}@send.${platformDomain}` };
  return {
    from: rewritten,
    replyTo: replyTo ?? { address: from.address },
    dkim: undefined,
    returnPathDomain: `send.${platformDomain}`,
  };
}
