import { z } from "zod";
import type { MailAddress } from "../../ports/mail-provider.js";

// Control characters (CR and LF among them) would let a caller inject mail headers.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const controlCharacters = /[\u0000-\u001f\u007f]/;
const nameAndAddress = /^\s*(?:"((?:[^"\\]|\\.)*)"|([^<>"]*?))\s*<([^<>]*)>\s*$/;

/** Why an address is refused, or undefined when `address` is a usable `local@domain`. */
export function addressProblem(address: string): string | undefined {
  if (controlCharacters.test(address)) return "must not contain control characters (CR, LF...)";
  if (address.length > 254) return "must be at most 254 characters";
  const parts = address.split("@");
  if (parts.length !== 2) return "must contain exactly one @";
  const [local, domain] = parts as [string, string];
  if (local.length === 0 || local.length > 64) return "local part must be 1 to 64 characters";
  if (/\s/.test(address)) return "must not contain spaces";
  if (!/^[^.]+(\.[^.]+)+$/.test(domain) && !/^\[[^\]]+\]$/.test(domain)) return "domain is not valid";
  return undefined;
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
export const mailboxSchema = z.string().transform((input, context) => {
  if (controlCharacters.test(input)) {
    context.addIssue({ code: "custom", message: "must not contain control characters (CR, LF...)" });
    return z.NEVER;
  }
  const mailbox = splitMailbox(input);
  const problem = mailbox ? addressProblem(mailbox.address) : "is not an email address or `Name <address>`";
  if (!mailbox || problem) {
    context.addIssue({ code: "custom", message: `"${input.slice(0, 100)}" ${problem}` });
    return z.NEVER;
  }
  return mailbox;
});

/** Most recipients accepted in one of `to`, `cc`, `bcc` (Resend and Postmark allow 50). */
export const maxRecipientsPerField = 50;

/**
 * `string | string[]` of mailboxes, normalised to an array. Hand-written rather than a zod union
 * so errors name the bad entry (`"to[1]": ...`) instead of a generic "Invalid input". `z.custom`
 * declares the input type (what TypeScript callers may pass) and lets every value through to the
 * transform, which checks it (what JSON callers actually pass).
 */
export const mailboxListSchema = z.custom<string | string[]>().transform((value: unknown, context) => {
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
