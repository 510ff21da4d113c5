import { isIPv4, isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";
import type { ClassificationRule, HitSource } from "./hit-verdict.js";

/** A set of CIDR ranges that answers "is this address in it?". */
export interface AddressRanges {
  has(ip: string | null): boolean;
}

/** One CIDR range as the leading bits of an address's bytes. */
interface ByteRange {
  bytes: Uint8Array;
  prefix: number;
}

/**
 * Builds {@link AddressRanges} from CIDR strings (`"17.0.0.0/8"`, `"2a01:111:f400::/48"`). Throws on a malformed one.
 *
 * Every tracking hit is checked against every published range (docs/measurement.md), so this is
 * on the hot path: an address is parsed once into bytes (and the last parse is remembered, since
 * one hit is checked against several sets in a row), then compared prefix by prefix. Node's
 * `BlockList` built a `SocketAddress` on every check, which cost more than the rest of the
 * classification together.
 */
export function addressRanges(cidrs: readonly string[]): AddressRanges {
  const v4: ByteRange[] = [];
  const v6: ByteRange[] = [];
  for (const cidr of cidrs) {
    const [network = "", bits = ""] = cidr.split("/");
    const prefix = Number(bits);
    const bytes = addressBytes(network);
    if (!bytes || !/^\d{1,3}$/.test(bits) || prefix > bytes.length * 8) {
      throw new TypeError(`"${cidr}" is not a CIDR range such as 192.0.2.0/24`);
    }
    (bytes.length === 4 ? v4 : v6).push({ bytes, prefix });
  }
  return {
    has(ip) {
      if (!ip) return false;
      const bytes = addressBytes(unmapped(ip));
      if (!bytes) return false;
      return (bytes.length === 4 ? v4 : v6).some((range) => startsWith(bytes, range));
    },
  };
}

/** Whether the first `range.prefix` bits of `bytes` are the range's. */
function startsWith(bytes: Uint8Array, range: ByteRange): boolean {
  const whole = range.prefix >> 3;
  for (let index = 0; index < whole; index++) {
    if (bytes[index] !== range.bytes[index]) return false;
  }
  const rest = range.prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((bytes[whole]! ^ range.bytes[whole]!) & mask) === 0;
}

let lastAddress: string | undefined;
let lastBytes: Uint8Array | undefined;

/** An IPv4 (4 bytes) or IPv6 (16 bytes) address's bytes; undefined when it is neither. */
function addressBytes(address: string): Uint8Array | undefined {
  if (address === lastAddress) return lastBytes;
  const bytes = isIPv4(address)
    ? Uint8Array.from(address.split("."), Number)
    : isIPv6(address)
      ? Uint8Array.from(ipaddr.IPv6.parse(address).toByteArray())
      : undefined;
  lastAddress = address;
  lastBytes = bytes;
  return bytes;
}

/** `::ffff:192.0.2.1` (an IPv4 client on a dual-stack socket) as `192.0.2.1`. */
export function unmapped(ip: string): string {
  return ip.startsWith("::ffff:") && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
}

/** Options of {@link addressRangeRule}. */
export interface AddressRangeRuleOptions {
  cidrs: readonly string[];
  /** What a hit from these addresses is (default `security_scanner`). */
  source?: Exclude<HitSource, "human">;
  /** The reason shown on each event, e.g. "Acme's mail gateway address". */
  reason: string;
  /** Which hits it decides (default both). */
  types?: ReadonlyArray<"open" | "click">;
}

/**
 * A classification rule for addresses you know, such as your company's own mail gateway: every
 * hit from them is a machine of `source`.
 *
 * ```ts
 * classifyHit(hit, earlier, { rules: [addressRangeRule({ cidrs: ["198.51.100.0/24"], reason: "Acme's gateway" })] })
 * ```
 */
export function addressRangeRule(options: AddressRangeRuleOptions): ClassificationRule {
  const ranges = addressRanges(options.cidrs);
  const types = options.types ?? ["open", "click"];
  const source = options.source ?? "security_scanner";
  return (hit) =>
    types.includes(hit.type) && ranges.has(hit.ip)
      ? { machine: true, source, reasons: [options.reason] }
      : undefined;
}
