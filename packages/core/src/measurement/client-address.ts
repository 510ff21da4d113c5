import { isIP } from "node:net";
import { addressRanges, unmapped } from "./address-ranges.js";

/**
 * Which proxies in front of MailPulse to believe about the client's address:
 * - `false` (default): none; the socket's address is the client's.
 * - `true`: all; the client-most (leftmost) `X-Forwarded-For` entry is the client's.
 * - a number `n`: the `n` hops nearest to us are proxies (e.g. `1` behind one load balancer);
 *   the address `n` entries left of the socket's is the client's.
 * - a list of CIDRs: addresses in them are proxies; walking from the socket leftwards, the first
 *   address outside them is the client's.
 *
 * Only trust a header that your proxy overwrites or appends to: any client can send one.
 */
export type TrustProxy = boolean | number | readonly string[];

/**
 * Resolves the client's address from the peer's (the socket's, or what the host framework reports)
 * and `X-Forwarded-For`, as `trustProxy` allows. The one rule for the client address: the core
 * applies it once per request (what the per-IP tracking limit counts and what a hit stores), the
 * tracking service to in-process callers' signals, the bare Node listener to its own `trustProxy`.
 * Resolving an address that has no header left to read returns it unchanged (IPv4-mapped IPv6
 * unmapped when a proxy is trusted), so applying the rule to its own answer changes nothing.
 */
export type ClientAddressResolver = (
  socketAddress: string | undefined,
  forwardedFor: string | null,
) => string | undefined;

/** Builds the resolver for a `trustProxy` setting; throws on a malformed CIDR or hop count. */
export function clientAddressResolver(trustProxy: TrustProxy = false): ClientAddressResolver {
  if (trustProxy === false || trustProxy === 0) return (socket) => socket;
  if (typeof trustProxy === "number" && (!Number.isInteger(trustProxy) || trustProxy < 0)) {
    throw new TypeError(
      `trustProxy must be true, false, a whole number of hops or a list of CIDRs (got ${trustProxy})`,
    );
  }
  const trusted = Array.isArray(trustProxy) ? addressRanges(trustProxy as readonly string[]) : undefined;
  return (socket, forwardedFor) => {
    // No header (the usual case, and every second application): nothing to walk, no arrays built.
    if (!forwardedFor) return socket === undefined ? undefined : unmapped(socket);
    const chain = [...parseForwardedFor(forwardedFor), ...(socket ? [unmapped(socket)] : [])];
    if (chain.length === 0) return socket;
    if (trustProxy === true) return chain[0];
    if (typeof trustProxy === "number") return chain[Math.max(0, chain.length - 1 - trustProxy)];
    for (let index = chain.length - 1; index > 0; index--) {
      if (!trusted!.has(chain[index]!)) return chain[index];
    }
    return chain[0];
  };
}

/** The addresses of an `X-Forwarded-For` header, client-most first; entries that are not addresses end it. */
function parseForwardedFor(header: string | null): string[] {
  if (!header) return [];
  const addresses: string[] = [];
  for (const entry of header.split(",")) {
    const address = withoutPort(entry.trim());
    // A garbled entry breaks the chain: nothing to its left can be believed either.
    if (isIP(address) === 0) addresses.length = 0;
    else addresses.push(unmapped(address));
  }
  return addresses;
}

/** `203.0.113.7:4711` and `[2001:db8::1]:4711` without their ports. */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  return v4WithPort ? v4WithPort[1]! : entry;
}
