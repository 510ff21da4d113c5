/**
 * The HTML tracking transform: pure functions that rewrite an email's links to tracking redirects,
 * inject the open pixel without touching any other byte, and derive the plain-text alternative.
 */
export { isTrackableUrl, trimUrlWhitespace } from "./classify-url.js";
export { decodeAttribute, escapeAttribute } from "./decode-attribute.js";
export type {
  AttributeQuote,
  HrefValueSpan,
  LinkAttributeScan,
  LinkTag,
  SourceSpan,
} from "./find-link-attributes.js";
export { findLinkAttributes, NOTRACK_ATTRIBUTE } from "./find-link-attributes.js";
export { htmlToText } from "./html-to-text.js";
export type { RewriteTrackedHtmlOptions, RewriteTrackedHtmlResult, TrackedLink } from "./rewrite-links.js";
export { rewriteTrackedHtml } from "./rewrite-links.js";
