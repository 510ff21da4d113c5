const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text as every storage accepts it: NUL removed (PostgreSQL refuses it in text) and lone UTF-16
 * surrogates replaced by U+FFFD (they have no UTF-8 form). Used on client-supplied signals such
 * as user agents, which are kept as data, not as exact bytes.
 */
export function sanitizeText(text: string): string {
  return text.replaceAll("\u0000", "").replace(loneSurrogate, "\ufffd");
}
