import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import {
  assertPrivateHttpWebhookUrl,
  assertPublicWebhookUrl,
  type LookupAddresses,
  parseWebhookUrl,
} from "./webhook-url.js";

/** `dns.lookup`'s callback signature as the URL check's promise of every address. */
function addressesVia(lookup: LookupFunction): LookupAddresses {
  return (hostname) =>
    new Promise((resolve, reject) => {
      lookup(hostname, { all: true }, (error, addresses) => {
        if (error) reject(error);
        else resolve((addresses as unknown as LookupAddress[]).map((entry) => entry.address));
      });
    });
}

/**
 * The check a webhook URL passes at create and update: an absolute https:// URL without
 * credentials, and (unless private networks are allowed) not pointing at a non-public address.
 * With private networks allowed, `http://` is accepted too, for a private address only.
 * Resolves with the URL as the WHATWG parser serialises it (odd IPv4 spellings rewritten).
 */
export function createWebhookUrlCheck(options: { allowPrivateNetworks: boolean; lookup?: LookupFunction }) {
  const lookup = options.lookup && addressesVia(options.lookup);
  return async (raw: string): Promise<string> => {
    const url = parseWebhookUrl(raw, { allowHttp: options.allowPrivateNetworks });
    if (url.protocol === "http:") await assertPrivateHttpWebhookUrl(url, lookup);
    await assertPublicWebhookUrl(url, { allowPrivateNetworks: options.allowPrivateNetworks, lookup });
    return url.href;
  };
}
