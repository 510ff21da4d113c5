import { isIPv4, isIPv6 } from "node:net";

/** How much of a client's IP address is stored with an event. */
export type IpAddressRetention = "truncated" | "full" | "none";

/**
 * The IP to store: by default truncated to its /24 (IPv4) or /48 (IPv6) network, enough to
 * recognise a mail provider's proxy or a scanner's network without keeping the person's address.
 */
export function retainedIp(ip: string | undefined, retention: IpAddressRetention): string | null {
  if (!ip || retention === "none") return null;
  const address = ip.startsWith("::ffff:") && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (retention === "full") return address;
  if (isIPv4(address)) return `${address.split(".").slice(0, 3).join(".")}.0`;
  if (isIPv6(address)) return `${expandIPv6(address).slice(0, 3).join(":")}::`;
  return null;
}

function expandIPv6(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill("0"), ...right].map((part) => part.toLowerCase());
}
