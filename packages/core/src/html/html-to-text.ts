import { Parser } from "htmlparser2";
import { MailPulseError } from "../errors.js";

/**
 * The deepest element nesting {@link htmlToText} reads. Real emails nest tables a few dozen levels;
 * browsers stop nesting at 512. htmlparser2 keeps its open elements in an array it shifts at the
 * front, so each tag costs time in proportion to the depth: the bound keeps the conversion linear
 * in the HTML's length (340,000 nested `<b>` took 46 s of blocked event loop before).
 */
export const MAX_HTML_NESTING_DEPTH = 1000;

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
/** Zero-width space/joiners, word joiner, BOM, combining grapheme joiner, soft hyphen. */
const INVISIBLE_CHARACTERS = /\u200b|\u200c|\u200d|\u2060|\ufeff|\u034f|\u00ad/g;
/** Three newlines are two blank lines, the most we keep in a row. */
const MAX_BREAKS = 3;

/** Accumulates text; line breaks are held back and merged until the next visible text. */
interface TextWriter {
  parts: string[];
  pendingBreaks: number;
}

/** What an open element does when it closes. */
type OpenElement =
  | { kind: "hidden" }
  | { kind: "block"; breaks: number; cell: boolean }
  | { kind: "link"; href: string; outer: TextWriter }
  | { kind: "void" };

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
 * Reads htmlparser2's events (the parser linkedom builds its trees with, so elements nest the same
 * way) and keeps open elements on an explicit stack instead of building a DOM and recursing into
 * it: a DOM walk overflowed the call stack from about 5,000 nested elements. Throws
 * VALIDATION_FAILED (400, on `htmlContent`) as soon as elements nest deeper than
 * {@link MAX_HTML_NESTING_DEPTH}, which keeps the time linear in the HTML's length.
 */
export function htmlToText(html: string): string {
  const root: TextWriter = { parts: [], pendingBreaks: 0 };
  let writer = root;
  const open: OpenElement[] = [];
  /** Open hidden elements: while above zero, nothing inside is read. */
  let hiddenDepth = 0;

  const parser = new Parser(
    {
      onopentag(tag, attributes) {
        if (open.length >= MAX_HTML_NESTING_DEPTH) throw tooDeep();
        if (hiddenDepth > 0 || INVISIBLE.has(tag) || isHidden(attributes)) {
          hiddenDepth += 1;
          open.push({ kind: "hidden" });
          return;
        }
        if (tag === "br") {
          // Unlike block edges, consecutive `<br>`s add up: `a<br><br>b` leaves a blank line.
          writer.pendingBreaks = Math.min(writer.pendingBreaks + 1, MAX_BREAKS);
          open.push({ kind: "void" });
        } else if (tag === "img") {
          if (!isPixel(attributes)) writeText(writer, ` ${attributes.alt ?? ""} `);
          open.push({ kind: "void" });
        } else if (tag === "a") {
          open.push({ kind: "link", href: attributes.href ?? "", outer: writer });
          writer = { parts: [], pendingBreaks: 0 };
        } else {
          const breaks = PARAGRAPHS.has(tag) ? 2 : BLOCKS.has(tag) || tag === "li" ? 1 : 0;
          requestBreaks(writer, breaks);
          if (tag === "li") writeText(writer, "- ");
          open.push({ kind: "block", breaks, cell: CELLS.has(tag) });
        }
      },
      ontext(text) {
        if (hiddenDepth === 0) writeText(writer, text);
      },
      onclosetag() {
        const element = open.pop();
        if (element === undefined) return;
        if (element.kind === "hidden") {
          hiddenDepth -= 1;
        } else if (element.kind === "link") {
          const inner = writer;
          writer = element.outer;
          writeText(writer, linkText(inner, element.href));
        } else if (element.kind === "block") {
          requestBreaks(writer, element.breaks);
          if (element.cell) writeText(writer, " ");
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);

  return root.parts
    .join("")
    .split("\n")
    .map((line) => line.replace(/ {2,}/g, " ").trim())
    .join("\n")
    .trim();
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
  const text = inner.parts.join("").replace(/\s+/g, " ").trim();
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

function collapseWhitespace(text: string): string {
  // NBSP becomes a plain space; zero-width characters (preheader filler) and soft hyphens vanish.
  return text.replace(INVISIBLE_CHARACTERS, "").replace(/\s+/g, " ");
}
