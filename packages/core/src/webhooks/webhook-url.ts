import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { MailPulseError } from "../errors.js";
import { isBlockedAddress } from "./address-policy.js";

/** Resolves a host name to all its addresses (A and AAAA), as text. */
export type LookupAddresses = (hostname: string) => Promise<string[]>;

/** Longest webhook URL accepted, in characters: browsers' and proxies' common limit. */
export const maxWebhookUrlLength = 2048;

/** The system resolver (what a connection would use), every address in its own order. */
export const systemLookupAddresses: LookupAddresses = async (hostname) => {
  const addresses = await lookup(hostname, { all: true, verbatim: true });
  return addresses.map((entry) => entry.address);
};

/** VALIDATION_FAILED for the `url` field: `url <problem>`, with the issue naming the field. */
function invalidUrl(problem: string): MailPulseError {
  return new MailPulseError("VALIDATION_FAILED", `url ${problem}`, {
    issues: [{ path: ["url"], message: problem }],
  });
}

/**
 * Parses a webhook's destination: an absolute `https://` URL without a user name or password
 * (a secret in the URL would be stored and shown in plain text; the signature authenticates
 * deliveries instead), at most {@link maxWebhookUrlLength} characters. Anything else throws
 * VALIDATION_FAILED (400) naming the field `url`.
 *
 * With `allowHttp` (the instance allows private networks) `http://` passes too; where such a URL
 * may point is {@link assertPrivateHttpWebhookUrl}'s to say.
 *
 * Only the syntax is checked here; {@link assertPublicWebhookUrl} checks where it points.
 */
export function parseWebhookUrl(raw: string, options: { allowHttp?: boolean } = {}): URL {
  if (raw.length > maxWebhookUrlLength) {
    throw invalidUrl(`must be at most ${maxWebhookUrlLength} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl("must be an absolute https:// URL");
  }
  const allowed = url.protocol === "https:" || (url.protocol === "http:" && options.allowHttp === true);
  if (!allowed) throw invalidUrl(`must use https://, not ${url.protocol}//`);
  if (url.username || url.password) {
    throw invalidUrl("must not contain a user name or password; deliveries are signed instead");
  }
  return url;
}

/** Options of {@link assertPublicWebhookUrl}. */
export interface PublicWebhookUrlOptions {
  /** Skip every check (loopback, private networks, names that do not resolve): for local development and tests. */
  allowPrivateNetworks: boolean;
  /** How host names are resolved; default {@link systemLookupAddresses}. */
  lookup?: LookupAddresses;
}

/** `[::1]` -> `::1`: the WHATWG parser keeps the brackets of an IPv6 literal in `hostname`. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

function refuse(range: string, address: string): MailPulseError {
  return invalidUrl(`must not point to ${articleFor(range)} ${range} address (${address})`);
}

/** "an unspecified", "a unique local": English picks the article by sound, not by letter. */
function articleFor(word: string): string {
  return /^(?!uni)[aeiou]/i.test(word) ? "an" : "a";
}

/**
 * Refuses (VALIDATION_FAILED, 400, field `url`) a webhook URL that points into a network a
 * server-side request must not reach (SSRF): its host is an IP literal in a blocked range (see
 * `isBlockedAddress`), `localhost` or a name under it, or a name any of whose A/AAAA addresses is
 * in one. The message names the range and address: `url must not point to a private network
 * address (10.0.0.1)`.
 *
 * A name that does not resolve is refused too (`url has a host that does not resolve: ...`), as
 * Svix does: a typo caught when the webhook is created is better than deliveries failing for days.
 * Odd IPv4 spellings (`2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`) need no care here: the
 * WHATWG URL parser has already rewritten them to `127.0.0.1`.
 *
 * This runs when a webhook is created or updated; delivery checks again the address it actually
 * connects to, since DNS can answer differently by then (rebinding).
 */
export async function assertPublicWebhookUrl(url: URL, options: PublicWebhookUrlOptions): Promise<void> {
  if (options.allowPrivateNetworks) return;
  const host = hostOf(url);
  if (isIP(host)) {
    const range = isBlockedAddress(host);
    if (range) throw refuse(range, host);
    return;
  }
  // RFC 6761: localhost names are loopback whatever a resolver says; no need to ask one.
  const bareHost = host.replace(/\.$/, "");
  if (bareHost === "localhost" || bareHost.endsWith(".localhost")) throw refuse("loopback", host);

  const addresses = await resolve(host, options.lookup ?? systemLookupAddresses);
  for (const address of addresses) {
    const range = isBlockedAddress(address);
    if (range) throw refuse(range, `${host} resolves to ${address}`);
  }
}

async function resolve(host: string, lookupAddresses: LookupAddresses): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await lookupAddresses(host);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason = typeof code === "string" ? ` (${code})` : "";
    throw invalidUrl(`has a host that does not resolve: ${host}${reason}`);
  }
  if (addresses.length === 0) throw invalidUrl(`has a host that does not resolve: ${host}`);
  return addresses;
}

/**
 * An `http://` webhook URL (accepted only while private networks are allowed) must point at a
 * private address: its host a non-public IP literal, `localhost` or a name under it, or a name
 * whose every address is non-public. A receiver on the internet gets its deliveries over TLS, so
 * a typo cannot send signed payloads in clear text across the internet. Else VALIDATION_FAILED
 * (400) naming `url`.
 */
export async function assertPrivateHttpWebhookUrl(url: URL, lookup?: LookupAddresses): Promise<void> {
  const host = hostOf(url);
  const bareHost = host.replace(/\.$/, "");
  if (bareHost === "localhost" || bareHost.endsWith(".localhost")) return;
  const addresses = isIP(host) ? [host] : await resolve(host, lookup ?? systemLookupAddresses);
  const publicAddress = addresses.find((address) => isBlockedAddress(address) === null);
  if (publicAddress !== undefined) {
    throw invalidUrl(
      `must use https:// when it points to a public address (${host === publicAddress ? host : `${host} resolves to ${publicAddress}`}); http:// is only for private receivers`,
    );
  }
}
