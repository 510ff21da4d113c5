/** Visible ASCII only: the bytes a `Location` header may carry in any HTTP stack. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/**
 * The form of a link's URL that MailPulse stores and redirects to: the WHATWG URL serialisation
 * (`new URL(url).href`), so an international host becomes punycode (`https://xn--r8jz45g.jp/`),
 * non-ASCII paths, queries and fragments are percent-encoded, and CR, LF and tabs are dropped
 * the way browsers drop them. `undefined` when the URL cannot be parsed, is not `http:`/`https:`,
 * or would still not be a valid header value: such a link cannot be answered with a 302.
 */
export function redirectUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
  return HEADER_SAFE.test(parsed.href) ? parsed.href : undefined;
}
