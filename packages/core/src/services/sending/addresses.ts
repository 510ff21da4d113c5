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

/** `string | string[]` of mailboxes, normalised to an array. */
export const mailboxListSchema = z
  .union([mailboxSchema.transform((mailbox) => [mailbox]), z.array(mailboxSchema)])
  .refine((list) => list.length <= maxRecipientsPerField, `at most ${maxRecipientsPerField} addresses`);
