/**
 * The HTML tracking transform, one pure function per file: this one rewrites an email's links to
 * tracking redirects and injects the open pixel without touching any other byte; `html-to-text.ts`
 * derives the plain-text alternative.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { isTrackableUrl, trimUrlWhitespace } from "./classify-url.js";
import { decodeAttribute, escapeAttribute } from "./decode-attribute.js";
import { createLinkAttributeReader, type LinkTag } from "./find-link-attributes.js";

/**
 * How much HTML {@link rewriteTrackedHtmlInSlices} reads before it gives the event loop back, as
 * `HTML_TO_TEXT_SLICE_LENGTH`: 64 KiB of `<a>` tags (3,300 of them) take a few milliseconds.
 */
export const REWRITE_SLICE_LENGTH = 64 * 1024;

/** How many splices {@link rewriteTrackedHtmlInSlices} copies between two turns of the loop. */
const SPLICES_PER_TURN = 8192;

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
  // The same steps as the sliced variant, one slice of everything, run without pausing.
  const steps = rewriteSteps(html, options, html.length);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * {@link rewriteTrackedHtml} without holding the event loop: reads `sliceLength` characters of HTML
 * at a time (default {@link REWRITE_SLICE_LENGTH}), rewrites the links found in each, and copies
 * the result a few thousand splices at a time, yielding to the loop in between. Same result, byte
 * for byte, and the same calls of `trackingUrlFor` in the same order; an error it throws ends the
 * rewrite at the slice holding that link, so a refusal (the link cap) costs no more than the HTML
 * read until then.
 */
export async function rewriteTrackedHtmlInSlices(
  html: string,
  options: RewriteTrackedHtmlOptions,
  sliceLength: number = REWRITE_SLICE_LENGTH,
): Promise<RewriteTrackedHtmlResult> {
  const steps = rewriteSteps(html, options, sliceLength);
  let step = steps.next();
  while (!step.done) {
    await nextTurn();
    step = steps.next();
  }
  return step.value;
}

/** The rewrite, yielding wherever a caller may give the loop back. */
function* rewriteSteps(
  html: string,
  options: RewriteTrackedHtmlOptions,
  sliceLength: number,
): Generator<void, RewriteTrackedHtmlResult> {
  const reader = createLinkAttributeReader(html);
  const splices: Splice[] = [];
  const links: TrackedLink[] = [];

  const rewriteTag = (tag: LinkTag) => {
    for (const span of tag.notrackAttributes) splices.push({ ...span, replacement: "" });
    const href = tag.href;
    if (!options.trackClicks || href === undefined || tag.notrackAttributes.length > 0) return;
    const originalUrl = trimUrlWhitespace(decodeAttribute(html.slice(href.start, href.end)));
    if (options.keepLinksWith?.some((placeholder) => originalUrl.includes(placeholder))) return;
    if (!isTrackableUrl(originalUrl)) return;
    const trackingUrl = options.trackingUrlFor(originalUrl, links.length);
    links.push({ originalUrl, trackingUrl });
    splices.push({ start: href.start, end: href.end, replacement: escapeAttribute(trackingUrl, href.quote) });
  };

  for (let end = Math.max(1, sliceLength); ; end += Math.max(1, sliceLength)) {
    const last = end >= html.length;
    reader.readUntil(end);
    if (last) reader.finish();
    for (const tag of reader.takeLinks()) rewriteTag(tag);
    if (last) break;
    yield;
  }

  if (options.pixelUrl) {
    const at = reader.lastBodyEndTagOffset() ?? html.length;
    // Tags arrive in document order, but the pixel may belong before links that follow `</body>`.
    // Splices never overlap: a tag with a notrack marker keeps its href, and the pixel is a pure insert.
    splices.splice(firstSpliceAfter(splices, at), 0, {
      start: at,
      end: at,
      replacement: openPixelTag(options.pixelUrl),
    });
  }

  return { html: yield* applySplices(html, splices), links };
}

/** Index of the first splice starting after `offset` (splices are sorted by start). */
function firstSpliceAfter(splices: Splice[], offset: number): number {
  let low = 0;
  let high = splices.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (splices[middle]!.start <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The open-tracking image. Block display and zeroed box keep it from adding a visible line. */
function openPixelTag(pixelUrl: string): string {
  return `<img src="${escapeAttribute(pixelUrl, "double")}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" />`;
}

/** Copies `html` with the splices (sorted, not overlapping) applied, a batch of them per step. */
function* applySplices(html: string, splices: Splice[]): Generator<void, string> {
  if (splices.length === 0) return html;
  const chunks: string[] = [];
  let copiedUpTo = 0;
  for (let first = 0; first < splices.length; first += SPLICES_PER_TURN) {
    if (first > 0) yield;
    const parts: string[] = [];
    for (const splice of splices.slice(first, first + SPLICES_PER_TURN)) {
      parts.push(html.slice(copiedUpTo, splice.start), splice.replacement);
      copiedUpTo = splice.end;
    }
    chunks.push(parts.join(""));
  }
  chunks.push(html.slice(copiedUpTo));
  return chunks.join("");
}
