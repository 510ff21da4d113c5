import { isbotMatch } from "isbot";
import type { HitSource } from "./hit-verdict.js";

/** What a user agent alone says about a hit; undefined when it says nothing. */
export interface UserAgentSignal {
  source: Exclude<HitSource, "human">;
  reason: string;
}

/**
 * Apple Mail Privacy Protection fetches images with a bare `Mozilla/5.0`: no browser or mail
 * client sends that alone (SocketLabs' and Litmus' published MPP analyses; isbot lists it too).
 */
export function isApplePrivacyUserAgent(userAgent: string | null): boolean {
  return userAgent?.trim() === "Mozilla/5.0";
}

/**
 * Mail providers' image proxies fetch the pixel when a reader opens the message, on the
 * reader's behalf: an open, made by a machine for a person. Their user agents name them
 * (Google: "GoogleImageProxy"; Yahoo: "YahooMailProxy"; Yandex: "YandexImageResizer").
 */
const imageProxies: ReadonlyArray<{ pattern: RegExp; name: string }> = [
  { pattern: /GoogleImageProxy|via ggpht\.com/i, name: "Gmail" },
  { pattern: /YahooMailProxy/i, name: "Yahoo Mail" },
  { pattern: /YandexImageResizer/i, name: "Yandex Mail" },
];

/** Security gateways that announce themselves in the user agent. */
const securityScanners: ReadonlyArray<{ pattern: RegExp; name: string }> = [
  { pattern: /barracuda/i, name: "Barracuda" },
  { pattern: /mimecast/i, name: "Mimecast" },
  { pattern: /proofpoint/i, name: "Proofpoint" },
  { pattern: /trend ?micro/i, name: "Trend Micro" },
  { pattern: /forcepoint/i, name: "Forcepoint" },
  { pattern: /symantec|broadcom/i, name: "Symantec" },
  { pattern: /zscaler/i, name: "Zscaler" },
  { pattern: /ironport|cisco secure email/i, name: "Cisco Secure Email" },
  { pattern: /safelinks|safe links/i, name: "Microsoft Safe Links" },
];

/** The mail provider whose image proxy made the hit, if its user agent names one. */
export function imageProxyOf(userAgent: string | null): string | undefined {
  if (!userAgent) return undefined;
  return imageProxies.find((proxy) => proxy.pattern.test(userAgent))?.name;
}

/** What the user agent says, checked after the Apple and image-proxy cases. */
export function userAgentSignal(userAgent: string | null): UserAgentSignal | undefined {
  if (!userAgent || userAgent.trim() === "") {
    return { source: "bot", reason: "no user agent: mail clients and browsers always send one" };
  }
  const scanner = securityScanners.find((candidate) => candidate.pattern.test(userAgent));
  if (scanner) {
    return { source: "security_scanner", reason: `user agent names the ${scanner.name} security gateway` };
  }
  // isbot: the maintained list of crawlers, link previewers, HTTP libraries and headless browsers.
  const match = isbotMatch(userAgent);
  if (match) {
    return { source: "bot", reason: `user agent of a bot, script or link preview ("${match}")` };
  }
  return undefined;
}
