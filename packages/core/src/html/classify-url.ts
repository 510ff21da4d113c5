/**
 * Merge-tag syntaxes of the common template engines: Handlebars/Mustache/Liquid `{{...}}`,
 * Mailchimp `*|...|*`, Salesforce Marketing Cloud `%%...%%`.
 */
const TEMPLATE_PLACEHOLDER = /\{\{[\s\S]*?\}\}|\*\|[\s\S]*?\|\*|%%[\s\S]+?%%/;

const HTTP_SCHEME = /^https?:\/\//i;

/**
 * Strips what the URL parser strips before parsing: leading and trailing C0 controls and spaces.
 * `String.prototype.trim` would also drop non-ASCII spaces such as U+00A0, which browsers keep.
 */
export function trimUrlWhitespace(url: string): string {
  let start = 0;
  let end = url.length;
  while (start < end && url.charCodeAt(start) <= 0x20) start += 1;
  while (end > start && url.charCodeAt(end - 1) <= 0x20) end -= 1;
  return url.slice(start, end);
}

/**
 * Tells whether a link may be replaced by a click-tracking redirect.
 *
 * `decodedHref` is the attribute value after entity decoding. True only for absolute `http:` and
 * `https:` URLs (scheme in any letter case, surrounding whitespace ignored) that the WHATWG URL
 * parser accepts. Everything else stays as written: `mailto:`, `tel:`, `sms:` and other schemes
 * open apps, not web pages, so a redirect cannot stand in for them; `#fragment` and relative links
 * only make sense against the message itself; `javascript:`/`data:` must never be wrapped.
 *
 * URLs containing a template placeholder anywhere (`{{...}}`, `*|...|*`, `%%...%%`) are also left
 * alone: the caller's template engine substitutes them after we run, and it only recognises the
 * placeholder in the href it was written in. Inside a tracking URL the placeholder would be
 * percent-encoded or hidden behind a link id, so it would never be filled in (an unsubscribe link
 * would point at the literal text `{{unsubscribe}}`).
 */
export function isTrackableUrl(decodedHref: string): boolean {
  const url = trimUrlWhitespace(decodedHref);
  return HTTP_SCHEME.test(url) && !hasTemplatePlaceholder(url) && URL.canParse(url);
}

/** Every placeholder syntax opens with one of these: most URLs need no regular expression. */
function hasTemplatePlaceholder(url: string): boolean {
  const mayHaveOne = url.includes("{{") || url.includes("*|") || url.includes("%%");
  return mayHaveOne && TEMPLATE_PLACEHOLDER.test(url);
}
