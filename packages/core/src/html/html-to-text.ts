import { setImmediate as nextTurn } from "node:timers/promises";
import { MailPulseError } from "../errors.js";
import { collapseWhitespace, tidyLines, tidyLinesInSlices } from "./collapse-whitespace.js";
import { createHtmlElementReader, type HtmlElementHandler, readHtmlElements } from "./read-html-elements.js";

/**
 * The deepest element nesting {@link htmlToText} reads. Real emails nest tables a few dozen levels;
 * browsers stop nesting at 512. It was the bound that kept htmlparser2's `Parser` linear (it
 * shifted its open elements at the front); {@link readHtmlElements} is linear at any depth, and
 * the bound stays as the documented refusal of HTML no mail client shows as written.
 */
export const MAX_HTML_NESTING_DEPTH = 1000;

/**
 * How much HTML {@link htmlToTextInSlices} reads before it gives the event loop back: 64 KiB is a
 * few milliseconds of work on an idle core (about 20 ms at most on a loaded one, whatever the shape).
 */
export const HTML_TO_TEXT_SLICE_LENGTH = 64 * 1024;

/** Content a reader never sees in a mail client. */
const INVISIBLE = new Set(["head", "title", "style", "script", "template", "noscript", "object", "svg"]);
/** Elements that start a new paragraph: surrounded by a blank line. */
const PARAGRAPHS = new Set([
  ...["p", "blockquote", "pre", "table", "ul", "ol", "hr"],
  ...["h1", "h2", "h3", "h4", "h5", "h6"],
]);
/** Other block elements: on a line of their own. */
const BLOCKS = new Set([
  ...["div", "section", "article", "header", "footer", "main", "nav", "aside", "center", "address"],
  ...["tr", "tbody", "thead", "tfoot", "caption", "dl", "dt", "dd", "figure", "figcaption", "form"],
]);
/** Table cells stay on their row's line, separated by a space, so receipt rows read "Item $9.00". */
const CELLS = new Set(["td", "th"]);
/** Three newlines are two blank lines, the most we keep in a row. */
const MAX_BREAKS = 3;

/** Accumulates text; line breaks are held back and merged until the next visible text. */
interface TextWriter {
  parts: string[];
  /** Earlier parts already joined, one string per slice (see `compact`). */
  joined: string[];
  pendingBreaks: number;
}

function newWriter(): TextWriter {
  return { parts: [], joined: [], pendingBreaks: 0 };
}

/** Joins a writer's parts into one string, so no final join meets millions of parts. */
function compactWriter(writer: TextWriter): void {
  if (writer.parts.length <= 1) return;
  writer.joined.push(writer.parts.join(""));
  // An empty part keeps "something was written" for the next line break.
  writer.parts = [""];
}

function writtenText(writer: TextWriter): string {
  return writer.joined.join("") + writer.parts.join("");
}

/** What an open element does when it closes. */
type OpenElement =
  | { kind: "hidden" }
  | { kind: "block"; breaks: number; cell: boolean }
  | { kind: "link"; href: string; outer: TextWriter; ended: boolean }
  | { kind: "void" };

/** Shared: a void element carries no state. */
const VOID: OpenElement = { kind: "void" };

type LinkElement = Extract<OpenElement, { kind: "link" }>;

/**
 * Builds the plain-text alternative of an HTML email.
 *
 * Skips `<head>`, `<style>`, `<script>`, comments (so `<!--[if mso]>` content), elements styled
 * `display:none` (preheaders padded with `&zwnj;&nbsp;` filler) and pixel or spacer images (width or
 * height of at most 1). Block elements start new lines, paragraphs and headings are set off by a blank
 * line, `<br>` breaks the line, `<li>` becomes "- item", other images contribute their `alt` text. A
 * link reads `text (url)`, or just `text` when it already shows the URL; `url` is the `href` as found,
 * so on tracked HTML the text part links through the tracking redirects too. Whitespace is collapsed,
 * entities decoded, at most 2 consecutive blank lines kept, and the result trimmed.
 *
 * Reads the element events of {@link readHtmlElements} (htmlparser2's tokenizer with its parser's
 * nesting rules) and keeps open elements on an explicit stack instead of building a DOM and
 * recursing into it: a DOM walk overflowed the call stack from about 5,000 nested elements. Time
 * is linear in the HTML's length for every shape (issue 31); `<a>` inside an open `<a>` ends the
 * first link, as in browsers. Throws VALIDATION_FAILED (400, on `htmlContent`) as soon as elements
 * nest deeper than {@link MAX_HTML_NESTING_DEPTH}.
 */
export function htmlToText(html: string): string {
  const builder = createTextBuilder();
  readHtmlElements(html, builder.handler);
  return builder.text();
}

/**
 * {@link htmlToText} without holding the event loop: reads {@link HTML_TO_TEXT_SLICE_LENGTH}
 * characters at a time and yields to the loop between slices, so tracking hits and other requests
 * are answered while a multi-MiB HTML body is converted. Same result, same VALIDATION_FAILED.
 */
export async function htmlToTextInSlices(
  html: string,
  sliceLength: number = HTML_TO_TEXT_SLICE_LENGTH,
): Promise<string> {
  const builder = createTextBuilder();
  const reader = createHtmlElementReader(html, builder.handler);
  for (let end = sliceLength; end < html.length; end += sliceLength) {
    reader.readUntil(end);
    builder.compact();
    await nextTurn();
  }
  reader.readUntil(html.length);
  reader.finish();
  return await builder.textInSlices(sliceLength);
}

/** The text-part rules as element events, and the text they have built so far. */
function createTextBuilder(): {
  handler: HtmlElementHandler;
  /** Joins what was written so far, so the final join is short. */
  compact: () => void;
  text: () => string;
  /** {@link text}, its last pass giving the loop back every `sliceLength` characters. */
  textInSlices: (sliceLength: number) => Promise<string>;
} {
  const root = newWriter();
  let writer = root;
  const open: OpenElement[] = [];
  /** Open hidden elements: while above zero, nothing inside is read. */
  let hiddenDepth = 0;
  /** The link being read; its text goes to `writer` until it ends. */
  let link: LinkElement | undefined;
  const endLink = (element: LinkElement) => {
    element.ended = true;
    const inner = writer;
    writer = element.outer;
    writeText(writer, linkText(inner, element.href));
    link = undefined;
  };

  const handler: HtmlElementHandler = {
    onOpen(tag, attributes, depth) {
      if (depth >= MAX_HTML_NESTING_DEPTH) throw tooDeep();
      if (hiddenDepth > 0 || INVISIBLE.has(tag) || isHidden(attributes)) {
        hiddenDepth += 1;
        open.push({ kind: "hidden" });
        return;
      }
      if (tag === "br") {
        // Unlike block edges, consecutive `<br>`s add up: `a<br><br>b` leaves a blank line.
        writer.pendingBreaks = Math.min(writer.pendingBreaks + 1, MAX_BREAKS);
        open.push(VOID);
      } else if (tag === "img") {
        if (!isPixel(attributes)) writeText(writer, ` ${attributes.alt ?? ""} `);
        open.push(VOID);
      } else if (tag === "a") {
        // A link never holds another: as in browsers, `<a>` inside an open `<a>` ends the first.
        // It also keeps the work linear: nested links would each copy all the text inside them.
        if (link !== undefined) endLink(link);
        link = { kind: "link", href: attributes.href ?? "", outer: writer, ended: false };
        open.push(link);
        writer = newWriter();
      } else {
        const breaks = PARAGRAPHS.has(tag) ? 2 : BLOCKS.has(tag) || tag === "li" ? 1 : 0;
        requestBreaks(writer, breaks);
        if (tag === "li") writeText(writer, "- ");
        open.push({ kind: "block", breaks, cell: CELLS.has(tag) });
      }
    },
    onText(text) {
      if (hiddenDepth === 0) writeText(writer, text);
    },
    onClose() {
      const element = open.pop();
      if (element === undefined) return;
      if (element.kind === "hidden") {
        hiddenDepth -= 1;
      } else if (element.kind === "link") {
        if (!element.ended) endLink(element);
      } else if (element.kind === "block") {
        requestBreaks(writer, element.breaks);
        if (element.cell) writeText(writer, " ");
      }
    },
  };

  return {
    handler,
    compact() {
      // Joining millions of small parts at the end held the loop for the time of one big join.
      // Only the top level and the link being read (links never nest) can hold text.
      compactWriter(root);
      compactWriter(writer);
    },
    text: () => tidyLines(writtenText(root)),
    textInSlices: (sliceLength) => tidyLinesInSlices(writtenText(root), sliceLength),
  };
}

function tooDeep(): MailPulseError {
  const message = `nests elements more than ${MAX_HTML_NESTING_DEPTH} levels deep`;
  return new MailPulseError("VALIDATION_FAILED", `htmlContent ${message}`, {
    issues: [{ path: ["htmlContent"], message }],
  });
}

function requestBreaks(writer: TextWriter, count: number): void {
  writer.pendingBreaks = Math.max(writer.pendingBreaks, count);
}

function writeText(writer: TextWriter, text: string): void {
  const collapsed = collapseWhitespace(text);
  if (writer.pendingBreaks > 0 && collapsed.trim() !== "") {
    if (writer.parts.length > 0) writer.parts.push("\n".repeat(writer.pendingBreaks));
    writer.pendingBreaks = 0;
  }
  writer.parts.push(collapsed);
}

function linkText(inner: TextWriter, href: string): string {
  // Block content inside a link (a whole "card") is read as one line.
  const text = collapseWhitespace(writtenText(inner)).trim();
  const url = href.trim();
  // In-page anchors and scripts mean nothing in plain text; show the text alone.
  if (url === "" || url.startsWith("#") || /^javascript:/i.test(url)) return text;
  if (text === "") return ` ${url} `;
  const shownAddress = url.replace(/^(?:mailto|tel):/i, "");
  return text === url || text === shownAddress ? text : `${text} (${url})`;
}

function isHidden(attributes: Record<string, string>): boolean {
  return attributes.hidden !== undefined || /display\s*:\s*none/i.test(attributes.style ?? "");
}

function isPixel(attributes: Record<string, string>): boolean {
  const width = Number.parseInt(attributes.width ?? "", 10);
  const height = Number.parseInt(attributes.height ?? "", 10);
  return width <= 1 || height <= 1;
}
