import { isIP } from "node:net";
import { domainToASCII } from "node:url";
import { z } from "zod";

/** A label: letters, digits and hyphens, 1 to 63 characters, no hyphen at either end. */
const labelPattern = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The outcome of {@link normalizeDomainName}. */
export type DomainNameOutcome = { ok: true; domain: string } | { ok: false; problem: string };

/**
 * A domain name as MailPulse stores and compares it: trimmed, lower case, without the trailing
 * dot, internationalised names in punycode (`bücher.example` -> `xn--bcher-kva.example`).
 *
 * Refused, with the reason: any name a resolver or URL parser reads as an IP address (see
 * {@link readsAsIpAddress}: `127.0.0.1`, `0x7f.1`, `123.123`, `2130706433`, `[::1]`, full-width
 * digits, percent-encoded digits), percent-encoding at all, `localhost` (and names under it), fewer than two
 * labels, a label outside 1-63 letters/digits/hyphens or with a hyphen at either end, more than
 * 253 characters in all.
 */
export function normalizeDomainName(input: string): DomainNameOutcome {
  const trimmed = input.trim().replace(/\.$/, "");
  if (!trimmed) return { ok: false, problem: "must not be empty" };
  const notAnAddress = { ok: false as const, problem: "must be a domain name, not an IP address" };
  if (readsAsIpAddress(trimmed)) return notAnAddress;
  // domainToASCII lower-cases, percent-decodes and applies IDNA as a URL parser does; it reads
  // `0x7f.1`, `123.123` or `%31%32%37.0.0.1` as IPv4 and answers '' for names it cannot convert.
  const ascii = domainToASCII(trimmed);
  if (ascii && readsAsIpAddress(ascii)) return notAnAddress;
  if (trimmed.includes("%")) return { ok: false, problem: "must not be percent-encoded" };
  if (!ascii) return { ok: false, problem: `is not a valid domain name: ${trimmed}` };
  if (ascii.length > 253) return { ok: false, problem: "must be at most 253 characters" };
  const labels = ascii.split(".");
  if (labels.length < 2) return { ok: false, problem: "must have at least two labels, e.g. example.com" };
  const bad = labels.find((label) => !labelPattern.test(label));
  if (bad !== undefined) {
    return {
      ok: false,
      problem: `has an invalid label "${bad}": use 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen`,
    };
  }
  if (labels.at(-1) === "localhost") return { ok: false, problem: "must not be localhost" };
  return { ok: true, domain: ascii };
}

/**
 * Whether `name` is, or would be read as, an IP address: an IPv4 or IPv6 literal (IPv6 also in
 * brackets, or anything in brackets), or a name whose last label is a number. The WHATWG URL
 * parser and `inet_aton` read a last label of digits or `0x` hex as IPv4 in short forms
 * (`123.123` is 123.0.0.123, `0x7f.1` is 127.0.0.1, `0177.1` octal) and refuse it otherwise
 * (`a.09`), and no top-level domain is numeric, so such a name is never a real domain.
 */
export function readsAsIpAddress(name: string): boolean {
  const host = name.normalize("NFKC").toLowerCase().replace(/\.$/, "");
  if (isIP(host) !== 0 || /^\[.*\]$/.test(host)) return true;
  const lastLabel = host.slice(host.lastIndexOf(".") + 1);
  return /^(?:[0-9]+|0x[0-9a-f]*)$/.test(lastLabel);
}

/** A zod schema for a domain-name field: normalises with {@link normalizeDomainName}. */
export const domainNameSchema = z.string().transform((value, context) => {
  const outcome = normalizeDomainName(value);
  if (outcome.ok) return outcome.domain;
  context.addIssue({ code: "custom", message: outcome.problem });
  return z.NEVER;
});

/** Two host names compared as DNS compares them: case-insensitive, trailing dot ignored. */
export function sameHostName(a: string, b: string): boolean {
  return a.replace(/\.$/, "").toLowerCase() === b.replace(/\.$/, "").toLowerCase();
}
