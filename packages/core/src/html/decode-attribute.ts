import { decodeHTMLAttribute } from "entities";
import type { AttributeQuote } from "./find-link-attributes.js";

/**
 * Decodes the character references of a raw attribute value exactly once, as a browser does:
 * `&amp;` -> `&`, `&#38;`/`&#x26;` -> `&`, named references such as `&copy;`.
 *
 * Uses the attribute rules of the HTML standard: a legacy reference without `;` followed by `=` or
 * an alphanumeric stays literal, so the query string `?a=1&copy=2` keeps its `&copy=2` parameter.
 * Decoding once matters: `&amp;amp;` is the literal text `&amp;`, not `&`.
 */
export function decodeAttribute(rawValue: string): string {
  // Most hrefs contain no reference at all; skip the decoder for them.
  return rawValue.includes("&") ? decodeHTMLAttribute(rawValue) : rawValue;
}

const ESCAPES_FOR_QUOTE: Record<AttributeQuote, RegExp> = {
  double: /[&"]/g,
  single: /[&']/g,
  unquoted: /[&"]/g,
};

const REFERENCE_FOR: Record<string, string> = { "&": "&amp;", '"': "&quot;", "'": "&#39;" };

/**
 * Encodes `value` for writing back between the quotes the attribute originally used, so that
 * decoding it again yields `value` exactly.
 *
 * Escapes `&` and the delimiting quote character. An `unquoted` value is returned wrapped in double
 * quotes (with `"` escaped), because a URL may contain characters (`=`, `'`, `` ` ``, spaces...)
 * that end or corrupt an unquoted value; the result then replaces the whole unquoted value.
 */
export function escapeAttribute(value: string, quote: AttributeQuote): string {
  const escaped = value.replace(ESCAPES_FOR_QUOTE[quote], (char) => REFERENCE_FOR[char] ?? char);
  return quote === "unquoted" ? `"${escaped}"` : escaped;
}
