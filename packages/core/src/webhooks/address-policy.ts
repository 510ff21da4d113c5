import ipaddr from "ipaddr.js";

/**
 * What a refused address is, in words for an error message ("a loopback address"), by the name
 * `ipaddr.js` gives its range. Ranges missing here but other than `unicast` (documentation,
 * benchmarking, 6to4, Teredo, discard, ...) are refused as "special-purpose": no webhook receiver
 * lives there, and several of them tunnel to an IPv4 address we could not check.
 */
const blockedRangeNames: Record<string, string> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  carrierGradeNat: "carrier-grade NAT",
  private: "private network",
  uniqueLocal: "unique local",
  deprecatedSiteLocal: "site-local",
  reserved: "reserved",
};

/** `::/96`, the deprecated IPv4-compatible IPv6 form (`::127.0.0.1`), which `ipaddr.js` calls unicast. */
function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  return parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7]! > 1);
}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const [high, low] = [address.parts[6]!, address.parts[7]!];
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** The well-known NAT64 prefix `64:ff9b::/96` (RFC 6052): a gateway forwards to the embedded IPv4. */
const nat64Prefix = ipaddr.parseCIDR("64:ff9b::/96");

/**
 * Whether a webhook may be delivered to `ip`: `null` when it is a public (global unicast) address,
 * else the name of the range that forbids it, for the error message: `loopback`, `private
 * network`, `link-local`, `unique local`, `carrier-grade NAT`, `multicast`, `broadcast`,
 * `unspecified`, `reserved`, `special-purpose`; `not an IP address` for a string that is none.
 *
 * IPv6 addresses that carry an IPv4 one are judged by it: IPv4-mapped (`::ffff:127.0.0.1`),
 * IPv4-compatible (`::127.0.0.1`) and NAT64 (`64:ff9b::7f00:1`, which DNS64 resolvers
 * synthesise for public IPv4-only hosts too, so it cannot be refused outright). Accepts every
 * spelling `ipaddr.js` parses, including `2130706433`, `0177.0.0.1` and a zone id (`fe80::1%eth0`).
 */
export function isBlockedAddress(ip: string): string | null {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(ip);
  } catch {
    // Fail closed: whatever this is, it is not an address we have judged safe.
    return "not an IP address";
  }
  if (address.kind() === "ipv6") {
    const ipv6 = address as ipaddr.IPv6;
    if (ipv6.isIPv4MappedAddress() || isIpv4Compatible(ipv6) || ipv6.match(nat64Prefix)) {
      address = embeddedIpv4(ipv6);
    }
  }
  const range = address.range();
  if (range === "unicast") return null;
  return blockedRangeNames[range] ?? "special-purpose";
}
