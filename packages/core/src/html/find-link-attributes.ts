import { QuoteType, Tokenizer } from "htmlparser2";

/** How an attribute value is written in the source: `"v"`, `'v'` or bare `v`. */
export type AttributeQuote = "double" | "single" | "unquoted";

/** A half-open `[start, end)` range of UTF-16 offsets into the original HTML string. */
export interface SourceSpan {
  start: number;
  end: number;
}

/**
 * Where an `href` value sits in the source. `start`/`end` exclude the quotes, so replacing
 * `[start, end)` changes the value and nothing else (for `unquoted`, the caller adds quotes).
 */
export interface HrefValueSpan extends SourceSpan {
  quote: AttributeQuote;
}

/** One `<a>` or `<area>` start tag, in document order. */
export interface LinkTag {
  /** Lower-cased tag name. */
  tagName: "a" | "area";
  /**
   * The value of the tag's first `href` attribute. `undefined` when the tag has no `href`, or
   * when the first one is valueless (`<a href>`): browsers ignore any later duplicate `href`,
   * so rewriting one would change which URL the reader is sent to.
   */
  href: HrefValueSpan | undefined;
  /**
   * Every `data-mailpulse-notrack` attribute on the tag, each span covering the attribute's
   * name, value and the whitespace before it, so removing the span leaves well-formed markup.
   */
  notrackAttributes: SourceSpan[];
}

/** What {@link findLinkAttributes} found in one document. */
export interface LinkAttributeScan {
  links: LinkTag[];
  /**
   * Offset of the `<` of the last real `</body>` end tag (any letter case), or `undefined` when
   * the document has none. `</body>` inside comments, `<script>`, `<style>` or CDATA does not count.
   */
  lastBodyEndTagOffset: number | undefined;
}

/** The opt-out marker authors put on a link they do not want tracked (see `rewriteTrackedHtml`). */
export const NOTRACK_ATTRIBUTE = "data-mailpulse-notrack";

const QUOTE_KIND: Record<QuoteType, AttributeQuote | undefined> = {
  [QuoteType.NoValue]: undefined,
  [QuoteType.Unquoted]: "unquoted",
  [QuoteType.Single]: "single",
  [QuoteType.Double]: "double",
};

/**
 * Locates, in the original string, the `href` values of `<a>`/`<area>` tags, their
 * `data-mailpulse-notrack` attributes and the last `</body>` end tag.
 *
 * We use htmlparser2's tokenizer rather than a DOM because it reports source offsets, which lets
 * the caller splice the original text and keep every other byte as the author wrote it. The
 * tokenizer already knows which regions are not markup (comments, including `<!--[if mso]>`
 * conditional comments, CDATA, and the raw text of `<script>`, `<style>`, `<title>`, `<textarea>`,
 * `<xmp>`), so look-alike tags there are never reported. A tag cut off by the end of input is not
 * reported either, as browsers drop it too. Pure function; runs in one pass over the input.
 */
export function findLinkAttributes(html: string): LinkAttributeScan {
  const reader = createLinkAttributeReader(html);
  reader.readUntil(html.length);
  reader.finish();
  return { links: reader.takeLinks(), lastBodyEndTagOffset: reader.lastBodyEndTagOffset() };
}

/** Reads one HTML string a part at a time; see {@link findLinkAttributes} for what it reports. */
export interface LinkAttributeReader {
  /** Reads up to (not including) offset `end`; a tag cut there is reported once it ends. */
  readUntil(end: number): void;
  /** Reads what was cut off at the end (a tag still open there is dropped, as browsers do). */
  finish(): void;
  /** The link tags completed since the previous call, in document order. */
  takeLinks(): LinkTag[];
  /** Offset of the `<` of the last `</body>` read so far, as in {@link LinkAttributeScan}. */
  lastBodyEndTagOffset(): number | undefined;
}

/**
 * {@link findLinkAttributes} in parts, so a caller can give the event loop back between them (5 MiB
 * of `<a>` tags takes the tokenizer 0.3 to 0.5 s): the tokenizer is fed slices of `html` and every
 * offset it reports is into `html` itself, so the result does not depend on where the cuts fall.
 */
export function createLinkAttributeReader(html: string): LinkAttributeReader {
  let links: LinkTag[] = [];
  let lastBodyEndTagOffset: number | undefined;

  // State of the start tag being read; committed only when the tag is closed by `>`.
  let currentTag: LinkTag | undefined;
  let sawHref = false;
  let attributeName = "";
  let attributeNameStart = -1;
  let valueStart = -1;

  const tokenizer = new Tokenizer(
    // Entity decoding off: we want raw offsets, and it lets the tokenizer skip quoted values fast.
    { xmlMode: false, decodeEntities: false },
    {
      onopentagname(start, end) {
        // Names are compared in place and in ASCII case only, as the HTML tokenizer folds them
        // (`toLowerCase` would also fold U+212A KELVIN SIGN to `k`), and no tag name is sliced.
        const name = nameAt(html, start, end, "a")
          ? "a"
          : nameAt(html, start, end, "area")
            ? "area"
            : undefined;
        currentTag =
          name === undefined ? undefined : { tagName: name, href: undefined, notrackAttributes: [] };
        sawHref = false;
      },
      onattribname(start, end) {
        if (currentTag === undefined) return;
        attributeName = nameAt(html, start, end, "href")
          ? "href"
          : nameAt(html, start, end, NOTRACK_ATTRIBUTE)
            ? NOTRACK_ATTRIBUTE
            : "";
        attributeNameStart = start;
        valueStart = -1;
      },
      onattribdata(start) {
        // A value cut by a slice arrives in several calls: its start is the first one's.
        if (currentTag !== undefined && valueStart === -1) valueStart = start;
      },
      onattribend(quote, endIndex) {
        if (currentTag === undefined) return;
        if (attributeName === "href" && !sawHref) {
          sawHref = true;
          const kind = QUOTE_KIND[quote];
          if (kind !== undefined && valueStart !== -1) {
            // For quoted values endIndex points just past the closing quote.
            const end = kind === "unquoted" ? endIndex : endIndex - 1;
            currentTag.href = { start: valueStart, end, quote: kind };
          }
        } else if (attributeName === NOTRACK_ATTRIBUTE) {
          currentTag.notrackAttributes.push({
            start: skipWhitespaceBackwards(html, attributeNameStart),
            end: endIndex,
          });
        }
      },
      onopentagend() {
        if (currentTag !== undefined) links.push(currentTag);
        currentTag = undefined;
      },
      onselfclosingtag() {
        if (currentTag !== undefined) links.push(currentTag);
        currentTag = undefined;
      },
      onclosetag(start, end) {
        if (nameAt(html, start, end, "body")) {
          // The tokenizer reports the name only and accepts `</ body>`, so search back for the `<`.
          lastBodyEndTagOffset = html.lastIndexOf("<", start);
        }
      },
      onattribentity() {},
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onend() {},
      onprocessinginstruction() {},
      ontext() {},
      ontextentity() {},
    },
  );
  let read = 0;
  return {
    readUntil(end) {
      const until = Math.min(end, html.length);
      if (until <= read) return;
      tokenizer.write(html.slice(read, until));
      read = until;
    },
    finish() {
      tokenizer.end();
    },
    takeLinks() {
      const taken = links;
      links = [];
      return taken;
    },
    lastBodyEndTagOffset: () => lastBodyEndTagOffset,
  };
}

/**
 * Whether `html[start, end)` is `lowerCaseName` in any ASCII letter case, without slicing. Only
 * letters are folded (`| 0x20`), so a name holding a digit or `-` must match those exactly.
 */
function nameAt(html: string, start: number, end: number, lowerCaseName: string): boolean {
  if (end - start !== lowerCaseName.length) return false;
  for (let index = 0; index < lowerCaseName.length; index += 1) {
    const expected = lowerCaseName.charCodeAt(index);
    const actual = html.charCodeAt(start + index);
    const isLetter = expected >= 0x61 && expected <= 0x7a;
    if ((isLetter ? actual | 0x20 : actual) !== expected) return false;
  }
  return true;
}

function skipWhitespaceBackwards(html: string, index: number): number {
  let start = index;
  while (start > 0 && isHtmlWhitespace(html.charCodeAt(start - 1))) start -= 1;
  return start;
}

function isHtmlWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}
