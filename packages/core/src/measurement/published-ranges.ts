import type { HitSource } from "./hit-verdict.js";

/**
 * Address ranges that belong to one operator whose requests are never a person reading mail at
 * their own desk. Each entry names where the list is published; docs/measurement.md says how they
 * are used and how to add your own (a rule built with `addressRangeRule`).
 *
 * The ranges were transcribed on 2026-11-23 from the references below (this repository cannot
 * fetch live lists at build time). Providers change them: when a reference moves, update the
 * entry and its date in the same change.
 */
export interface PublishedRange {
  /** Who operates the addresses, as the reasons name it. */
  operator: string;
  /** What a hit from there is. */
  source: Exclude<HitSource, "human">;
  /** Which kinds of hit the range decides: a proxy that only fetches images says nothing about clicks. */
  decides: ReadonlyArray<"open" | "click">;
  cidrs: readonly string[];
  /** Where the list is published. */
  reference: string;
}

/**
 * Apple owns 17.0.0.0/8 outright (ARIN NET-17-0-0-0-1, AS714). Mail Privacy Protection fetches
 * through Apple's relay; its first hop's addresses are Apple's own. Only opens are decided by it:
 * a person on iCloud Private Relay may click from an Apple-operated address too.
 */
export const appleRanges: PublishedRange = {
  operator: "Apple",
  source: "apple_privacy",
  decides: ["open"],
  cidrs: ["17.0.0.0/8"],
  reference: "https://whois.arin.net/rest/net/NET-17-0-0-0-1 (Apple Inc., AS714)",
};

/** Gateways that fetch the links (and pixels) of messages they scan. */
export const securityGatewayRanges: readonly PublishedRange[] = [
  {
    operator: "Microsoft Exchange Online Protection",
    source: "security_scanner",
    decides: ["open", "click"],
    // Exchange Online mail-flow ranges (endpoint set "Exchange Online", ID 9 and 10), plus
    // 40.94.0.0/16, where senders publicly report Safe Links detonation requests coming from.
    cidrs: [
      "40.92.0.0/15",
      "40.94.0.0/16",
      "40.107.0.0/16",
      "52.100.0.0/14",
      "104.47.0.0/17",
      "2a01:111:f400::/48",
      "2a01:111:f403::/48",
    ],
    reference:
      "https://learn.microsoft.com/en-us/microsoft-365/enterprise/urls-and-ip-address-ranges (Exchange Online); 40.94.0.0/16: https://techqa.club/v/q/prevent-microsoft-safe-links-scanning-67179134",
  },
  {
    operator: "Proofpoint",
    source: "security_scanner",
    decides: ["open", "click"],
    cidrs: ["67.231.144.0/20", "148.163.128.0/19"],
    reference: "https://help.proofpoint.com (Proofpoint-hosted IP ranges; AS26211)",
  },
  {
    operator: "Mimecast",
    source: "security_scanner",
    decides: ["open", "click"],
    cidrs: [
      "205.139.110.0/24",
      "207.211.30.0/24",
      "216.205.24.0/24",
      "170.10.128.0/22",
      "91.220.42.0/24",
      "185.58.84.0/22",
      "195.130.217.0/24",
    ],
    reference: "https://community.mimecast.com/s/article/Mimecast-Data-Centers-and-URLs",
  },
  {
    operator: "Barracuda",
    source: "security_scanner",
    decides: ["open", "click"],
    cidrs: ["64.235.144.0/20", "209.222.80.0/21"],
    reference: "https://campus.barracuda.com (Barracuda Email Security Service IP ranges; AS15324)",
  },
];
