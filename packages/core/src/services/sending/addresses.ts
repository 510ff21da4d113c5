import { isIP } from "node:net";
import { z } from "zod";
import type { MailAddress } from "../../ports/mail-provider.js";
import { normalizeDomainName } from "../domains/domain-name.js";

// Control characters (CR and LF among them) would let a caller inject mail headers.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const controlCharacters = /[\u0000-\u001f\u007f]/;
const nameAndAddress = /^\s*(?:"((?:[^"\\]|\\.)*)"|([^<>"]*?))\s*<([^<>]*)>\s*$/;

// RFC 5322 dot-atom: atext characters, dots only between them.
const dotAtomLocalPart = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// RFC 5322 quoted string of printable ASCII, with backslash escapes.
const quotedLocalPart = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/;
const ipv4Literal = /^\[(\d{1,3}(?:\.\d{1,3}){3})\]$/;
const ipv6Literal = /^\[IPv6:([0-9A-Fa-f:.]+)\]$/;

/** The outcome of {@link checkAddress}: the address as written, or why it is refused. */
export type AddressOutcome = { ok: true; address: string } | { ok: false; problem: string };

/**
 * Checks a bare `local@domain` the way a receiving SMTP server will, so that an address the
 * provider would refuse is a 400 now rather than a failed send later: the local part is an
 * RFC 5322 dot-atom or quoted string of ASCII characters (non-ASCII local parts need SMTPUTF8,
 * which MailPulse does not use), the domain follows the DNS rules (internationalised names count
 * in their punycode form) or is an IP address literal.
 */
export function checkAddress(address: string): AddressOutcome {
  if (controlCharacters.test(address)) return refuse("must not contain control characters (CR, LF...)");
  if (address.length > 254) return refuse("must be at most 254 characters");
  const at = address.lastIndexOf("@");
  if (at < 0) return refuse("must contain an @");
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length === 0 || local.length > 64) return refuse("local part must be 1 to 64 characters");
  if (/[^\x20-\x7e]/.test(local)) {
    return refuse("local part must be ASCII (addresses that need SMTPUTF8 are not supported)");
  }
  if (!dotAtomLocalPart.test(local) && !quotedLocalPart.test(local)) {
    return refuse(
      `local part "${local.slice(0, 64)}" is not valid (unquoted: letters, digits, . and !#$%&'*+/=?^_\`{|}~-)`,
    );
  }
  const literal = ipv4Literal.exec(domain) ?? ipv6Literal.exec(domain);
  if (literal) {
    return isIP(literal[1] ?? "") ? { ok: true, address } : refuse("domain is not a valid address literal");
  }
  const normalized = normalizeDomainName(domain);
  if (!normalized.ok || domain.trim() !== domain) {
    return refuse(`domain ${normalized.ok ? "must not contain spaces" : normalized.problem}`);
  }
  // Kept as written (a Unicode domain too): the sender rule compares normalised names, and
  // nodemailer writes internationalised domains in punycode on the wire.
  return { ok: true, address };
}

function refuse(problem: string): AddressOutcome {
  return { ok: false, problem };
}

/** Splits `Name <address>` (quoted or not) or a bare address; undefined when malformed. */
export function splitMailbox(input: string): MailAddress | undefined {
  const match = nameAndAddress.exec(input);
  if (!match) return input.includes("<") || input.includes(">") ? undefined : { address: input.trim() };
  const name = (match[1]?.replace(/\\(.)/g, "$1") ?? match[2] ?? "").trim();
  const address = (match[3] ?? "").trim();
  return name ? { name, address } : { address };
}

/** Formats an address the way the API returns it: `Name <address>` or `address`. */
export function formatMailbox(mailbox: MailAddress): string {
  return mailbox.name ? `${mailbox.name} <${mailbox.address}>` : mailbox.address;
}

/** A zod schema for one mailbox string, parsed into a {@link MailAddress}. */
export const mailboxSchema = z
  .string()
  .transform((input, context) => {
    if (controlCharacters.test(input)) {
      context.addIssue({ code: "custom", message: "must not contain control characters (CR, LF...)" });
      return z.NEVER;
    }
    const mailbox = splitMailbox(input);
    if (!mailbox) {
      context.addIssue({
        code: "custom",
        message: `"${input.slice(0, 100)}" is not an email address or \`Name <address>\``,
      });
      return z.NEVER;
    }
    const checked = checkAddress(mailbox.address);
    if (!checked.ok) {
      context.addIssue({ code: "custom", message: `"${input.slice(0, 100)}" ${checked.problem}` });
      return z.NEVER;
    }
    return { ...mailbox, address: checked.address };
  })
  .meta({
    id: "Mailbox",
    description:
      "An email address, optionally with a display name: `ann@example.com` or `Ann Lee <ann@example.com>` (the name may be quoted). Control characters (CR, LF...) are refused; the address must have exactly one `@`, a 1 to 64 character local part, no spaces, at most 254 characters and a dotted (or bracketed literal) domain.",
    examples: ["ann@example.com", "Ann Lee <ann@example.com>"],
  });

/** Most recipients accepted in one of `to`, `cc`, `bcc` (Resend and Postmark allow 50). */
export const maxRecipientsPerField = 50;

/**
 * `string | string[]` of mailboxes, normalised to an array. Hand-written rather than a zod union
 * so errors name the bad entry (`"to[1]": ...`) instead of a generic "Invalid input". `z.custom`
 * declares the input type (what TypeScript callers may pass) and lets every value through to the
 * transform, which checks it (what JSON callers actually pass).
 */
const mailboxList = z.custom<string | string[]>().transform((value: unknown, context) => {
  if (value === undefined) {
    context.addIssue({ code: "custom", message: "is required" });
    return z.NEVER;
  }
  const isList = Array.isArray(value);
  const entries: unknown[] = isList ? value : [value];
  if (entries.length > maxRecipientsPerField) {
    context.addIssue({ code: "custom", message: `at most ${maxRecipientsPerField} addresses` });
    return z.NEVER;
  }
  const mailboxes: MailAddress[] = [];
  entries.forEach((entry, index) => {
    if (typeof entry !== "string") {
      context.addIssue({
        code: "custom",
        message: "must be an address string or an array of them",
        path: isList ? [index] : [],
      });
      return;
    }
    const parsed = mailboxSchema.safeParse(entry);
    if (parsed.success) mailboxes.push(parsed.data);
    else
      context.addIssue({
        code: "custom",
        message: parsed.error.issues[0]?.message ?? "is invalid",
        path: isList ? [index] : [],
      });
  });
  return mailboxes;
});

// z.custom lists: zod cannot derive their JSON Schema, so it is written here.

/** `cc`, `bcc`: one mailbox or a list of at most {@link maxRecipientsPerField}. */
export const mailboxListSchema = mailboxList.meta({
  id: "MailboxList",
  description: "One mailbox, or an array of at most 50.",
  oneOf: [
    { $ref: "#/components/schemas/Mailbox" },
    { type: "array", items: { $ref: "#/components/schemas/Mailbox" }, maxItems: maxRecipientsPerField },
  ],
});

/** `to`: one mailbox or a list of 1 to {@link maxRecipientsPerField}. */
export const recipientsSchema = mailboxList
  .refine((list) => list.length > 0, "at least one recipient")
  .meta({
    id: "Recipients",
    description: "One mailbox, or an array of 1 to 50.",
    oneOf: [
      { $ref: "#/components/schemas/Mailbox" },
      {
        type: "array",
        items: { $ref: "#/components/schemas/Mailbox" },
        minItems: 1,
        maxItems: maxRecipientsPerField,
      },
    ],
  });
