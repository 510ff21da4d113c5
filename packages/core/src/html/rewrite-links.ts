/**
 * The HTML tracking transform, one pure function per file: this one rewrites an email's links to
 * tracking redirects and injects the open pixel without touching any other byte; `html-to-text.ts`
 * derives the plain-text alternative.
 */
import { isTrackableUrl, trimUrlWhitespace } from "./classify-url.js";
import { decodeAttribute, escapeAttribute } from "./decode-attribute.js";
import { findLinkAttributes } from "./find-link-attributes.js";

/** Options of {@link rewriteTrackedHtml}. */
export interface RewriteTrackedHtmlOptions {
  /** When false, no `href` is rewritten; `data-mailpulse-notrack` attributes are still removed. */
  trackClicks: boolean;
  /**
   * Returns the redirect URL that replaces one link occurrence. Called once per trackable link,
   * in document order, with the decoded URL (surrounding whitespace trimmed, query order and
   * `#fragment` untouched) and the 0-based index of that occurrence among trackable links, so the
   * same URL appearing twice gets two calls and can be told apart.
   */
  trackingUrlFor: (originalUrl: string, occurrenceIndex: number) => string;
  /** Open-tracking pixel URL. When a non-empty string, a 1x1 image pointing at it is injected. */
  pixelUrl?: string;
  /**
   * Placeholders filled in after tracking (`{{unsubscribe_url}}`): an `href` holding one, as
   * written or once its character references are decoded, is never rewritten and keeps its
   * bytes. Default: none.
   */
  keepLinksWith?: readonly string[];
}

/** One rewritten link occurrence, in document order. */
export interface TrackedLink {
  /** The decoded, trimmed URL the author wrote. */
  originalUrl: string;
  /** What `trackingUrlFor` returned for it. */
  trackingUrl: string;
}

/** Result of {@link rewriteTrackedHtml}. */
export interface RewriteTrackedHtmlResult {
  html: string;
  links: TrackedLink[];
}

interface Splice {
  start: number;
  end: number;
  replacement: string;
}

/**
 * Rewrites an email's HTML for tracking and changes nothing else, byte for byte.
 *
 * - Each `href` of `<a>`/`<area>` holding a trackable URL (see `isTrackableUrl`) is replaced by
 *   `trackingUrlFor(url, index)`, escaped for the attribute's original quote style (an unquoted
 *   value gets double quotes).
 * - A link carrying `data-mailpulse-notrack` keeps its URL; the marker attribute itself is removed
 *   so it never reaches the recipient.
 * - A link whose URL holds one of `keepLinksWith` is left as written.
 * - With `pixelUrl`, the open pixel `<img>` goes immediately before the last `</body>` (any case),
 *   or at the very end when there is none.
 *
 * Why splice instead of DOM round-tripping: a serializer normalises what it re-emits (quotes,
 * entities, `<br />`, attribute case, conditional-comment content), and email clients are fragile
 * enough that any such change can alter rendering. Output is built in one pass by copying the
 * original string between splice points, so cost is linear in the input size.
 */
export function rewriteTrackedHtml(
  html: string,
  options: RewriteTrackedHtmlOptions,
): RewriteTrackedHtmlResult {
  const scan = findLinkAttributes(html);
  const splices: Splice[] = [];
  const links: TrackedLink[] = [];

  for (const tag of scan.links) {
    for (const span of tag.notrackAttributes) splices.push({ ...span, replacement: "" });
    const href = tag.href;
    if (!options.trackClicks || href === undefined || tag.notrackAttributes.length > 0) continue;
    const originalUrl = trimUrlWhitespace(decodeAttribute(html.slice(href.start, href.end)));
    if (options.keepLinksWith?.some((placeholder) => originalUrl.includes(placeholder))) continue;
    if (!isTrackableUrl(originalUrl)) continue;
    const trackingUrl = options.trackingUrlFor(originalUrl, links.length);
    links.push({ originalUrl, trackingUrl });
    splices.push({ start: href.start, end: href.end, replacement: escapeAttribute(trackingUrl, href.quote) });
  }

  if (options.pixelUrl) {
    const at = scan.lastBodyEndTagOffset ?? html.length;
    splices.push({ start: at, end: at, replacement: openPixelTag(options.pixelUrl) });
  }

  return { html: applySplices(html, splices), links };
}

/** The open-tracking image. Block display and zeroed box keep it from adding a visible line. */
function openPixelTag(pixelUrl: string): string {
  return `<img src="${escapeAttribute(pixelUrl, "double")}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" />`;
}

function applySplices(html: string, splices: Splice[]): string {
  if (splices.length === 0) return html;
  // Tags arrive in document order, but the pixel may belong before links that follow `</body>`.
  // Splices never overlap: a tag with a notrack marker keeps its href, and the pixel is a pure insert.
  splices.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let copiedUpTo = 0;
  for (const splice of splices) {
    parts.push(html.slice(copiedUpTo, splice.start), splice.replacement);
    copiedUpTo = splice.end;
  }
  parts.push(html.slice(copiedUpTo));
  return parts.join("");
}
