import { BlockList, isIPv4, isIPv6 } from "node:net";
import type { ClassificationRule, HitSource } from "./hit-verdict.js";

/** A set of CIDR ranges that answers "is this address in it?" in constant time per range family. */
export interface AddressRanges {
  has(ip: string | null): boolean;
}

/** Builds {@link AddressRanges} from CIDR strings (`"17.0.0.0/8"`, `"2a01:111:f400::/48"`). Throws on a malformed one. */
export function addressRanges(cidrs: readonly string[]): AddressRanges {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network = "", bits = ""] = cidr.split("/");
    const prefix = Number(bits);
    const family = isIPv4(network) ? "ipv4" : isIPv6(network) ? "ipv6" : undefined;
    if (!family || !/^\d{1,3}$/.test(bits) || prefix > (family === "ipv4" ? 32 : 128)) {
      throw new TypeError(`"${cidr}" is not a CIDR range such as 192.0.2.0/24`);
    }
    list.addSubnet(network, prefix, family);
  }
  return {
    has(ip) {
      if (!ip) return false;
      const address = unmapped(ip);
      if (isIPv4(address)) return list.check(address, "ipv4");
      if (isIPv6(address)) return list.check(address, "ipv6");
      return false;
    },
  };
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
