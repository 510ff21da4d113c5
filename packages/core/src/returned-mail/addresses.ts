/** Reading mail addresses out of report fields and notice text. */

const addressShape = /^[^\s<>@"(),;:]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;

/**
 * The address of a DSN or ARF address field: `rfc822; user@example.com` (RFC 3464 section 2.1.2),
 * `rfc822;<user@example.com>`, or a bare address; null when there is none. The `utf-8` address
 * type of RFC 6533 is read the same way.
 */
export function typedAddress(value: string | null): string | null {
  if (!value) return null;
  const semicolon = value.indexOf(";");
  return bareAddress(semicolon === -1 ? value : value.slice(semicolon + 1));
}

/** The address in `Name <user@example.com>`, `<user@example.com>` or `user@example.com`; null when it is none. */
export function bareAddress(value: string | null): string | null {
  if (!value) return null;
  const angled = /<([^<>]*)>/.exec(value)?.[1];
  const candidate = (angled ?? value).trim().replace(/^mailto:/i, "");
  return addressShape.test(candidate) ? candidate : null;
}

const addressLine = /^[ \t]*<?([^\s<>@"(),;:]{1,64}@[A-Za-z0-9][A-Za-z0-9.-]{0,252})>?:?[ \t]*(.*)$/;

/** A line of a notice that names a recipient: the address alone on it, or `<addr>:` (qmail), maybe with text after. */
export interface AddressLine {
  address: string;
  /** The line's index in the text. */
  line: number;
  /** What follows the address on the same line. */
  rest: string;
}

/**
 * The lines of a notice that start with a recipient address, as qmail (`<user@example.com>:`),
 * Exim and Gmail (an indented address alone on its line) and Exchange (the address above its
 * reason) write them.
 */
export function addressLines(lines: readonly string[]): AddressLine[] {
  const found: AddressLine[] = [];
  lines.forEach((text, line) => {
    const match = addressLine.exec(text);
    if (!match) return;
    const address = match[1]!.replace(/\.$/, "");
    if (addressShape.test(address)) found.push({ address, line, rest: match[2]! });
  });
  return found;
}
