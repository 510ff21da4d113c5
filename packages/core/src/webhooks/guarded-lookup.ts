import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { isBlockedAddress } from "./address-policy.js";

/** A connection refused because its address is in a range webhooks must not reach. */
export class BlockedAddressError extends Error {
  override readonly name = "BlockedAddressError";
  readonly code = "EBLOCKEDADDRESS";

  constructor(
    readonly address: string,
    readonly range: string,
  ) {
    super(`blocked address ${address} (${range})`);
  }
}

/**
 * Wraps a resolver (node's `dns.lookup` signature, the one an `Agent`'s `lookup` option takes) so
 * that a connection fails with {@link BlockedAddressError} when any address it answers is
 * blocked by `isBlockedAddress`. This is the check against DNS rebinding: it runs on the very
 * answer the socket connects to, at connect time, not on an earlier lookup that a hostile DNS
 * server may since have changed. Refusing when any address is blocked (not only the first)
 * keeps the outcome independent of which one happy-eyeballs tries first.
 */
export function blockPrivateAddresses(lookup: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, options, (error, address, family) => {
      if (error) {
        callback(error, address, family);
        return;
      }
      const addresses = Array.isArray(address)
        ? address.map((entry: LookupAddress) => entry.address)
        : [address];
      for (const candidate of addresses) {
        const range = isBlockedAddress(candidate);
        if (range) {
          callback(new BlockedAddressError(candidate, range), address, family);
          return;
        }
      }
      callback(null, address, family);
    });
  };
}
