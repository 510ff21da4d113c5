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
 * Refused, with the reason: an IP literal, `localhost` (and names under it), fewer than two
 * labels, a label outside 1-63 letters/digits/hyphens or with a hyphen at either end, more than
 * 253 characters in all.
 */
export function normalizeDomainName(input: string): DomainNameOutcome {
  const trimmed = input.trim().replace(/\.$/, "");
  if (!trimmed) return { ok: false, problem: "must not be empty" };
  if (isIP(trimmed) || isIP(trimmed.replace(/^\[|\]$/g, ""))) {
    return { ok: false, problem: "must be a domain name, not an IP address" };
  }
  // domainToASCII lower-cases and applies IDNA; it answers '' for names it cannot convert.
  const ascii = domainToASCII(trimmed);
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
