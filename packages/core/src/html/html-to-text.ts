import { parseHTML } from "linkedom";

// DOM node types as numbers: Node's global `Node` constructor does not exist outside a browser.
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

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
 */
export function htmlToText(html: string): string {
  const { document } = parseHTML(html);
  const writer: TextWriter = { parts: [], pendingBreaks: 0 };
  // Walk the document's children, not `document.body`: linkedom has no body for a bare fragment.
  for (const node of Array.from(document.childNodes)) render(node, writer);
  return writer.parts
    .join("")
    .split("\n")
    .map((line) => line.replace(/ {2,}/g, " ").trim())
    .join("\n")
    .trim();
}

function render(node: Node, writer: TextWriter): void {
  if (node.nodeType === TEXT_NODE) {
    writeText(writer, node.textContent ?? "");
    return;
  }
  if (node.nodeType !== ELEMENT_NODE) return; // comments, conditional comments, doctype
  const element = node as Element;
  const tag = element.localName.toLowerCase();
  if (INVISIBLE.has(tag) || isHidden(element)) return;
  if (tag === "br") {
    // Unlike block edges, consecutive `<br>`s add up: `a<br><br>b` leaves a blank line.
    writer.pendingBreaks = Math.min(writer.pendingBreaks + 1, MAX_BREAKS);
  } else if (tag === "img") {
    if (!isPixel(element)) writeText(writer, ` ${attribute(element, "alt") ?? ""} `);
  } else if (tag === "a") {
    writeText(writer, linkText(element));
  } else {
    const breaks = PARAGRAPHS.has(tag) ? 2 : BLOCKS.has(tag) || tag === "li" ? 1 : 0;
    requestBreaks(writer, breaks);
    if (tag === "li") writeText(writer, "- ");
    for (const child of Array.from(element.childNodes)) render(child, writer);
    requestBreaks(writer, breaks);
    if (CELLS.has(tag)) writeText(writer, " ");
  }
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

function linkText(link: Element): string {
  const inner: TextWriter = { parts: [], pendingBreaks: 0 };
  for (const child of Array.from(link.childNodes)) render(child, inner);
  // Block content inside a link (a whole "card") is read as one line.
  const text = inner.parts.join("").replace(/\s+/g, " ").trim();
  const url = (attribute(link, "href") ?? "").trim();
  // In-page anchors and scripts mean nothing in plain text; show the text alone.
  if (url === "" || url.startsWith("#") || /^javascript:/i.test(url)) return text;
  if (text === "") return ` ${url} `;
  const shownAddress = url.replace(/^(?:mailto|tel):/i, "");
  return text === url || text === shownAddress ? text : `${text} (${url})`;
}

function isHidden(element: Element): boolean {
  const style = attribute(element, "style") ?? "";
  return attribute(element, "hidden") !== null || /display\s*:\s*none/i.test(style);
}

function isPixel(image: Element): boolean {
  const width = Number.parseInt(attribute(image, "width") ?? "", 10);
  const height = Number.parseInt(attribute(image, "height") ?? "", 10);
  return width <= 1 || height <= 1;
}

/** Case-insensitive attribute lookup: linkedom keeps legacy `WIDTH=`/`HREF=` names as written. */
function attribute(element: Element, name: string): string | null {
  for (const attr of Array.from(element.attributes)) {
    if (attr.name.toLowerCase() === name) return attr.value;
  }
  return null;
}

function collapseWhitespace(text: string): string {
  // NBSP becomes a plain space; zero-width characters (preheader filler) and soft hyphens vanish.
  return text.replace(INVISIBLE_CHARACTERS, "").replace(/\s+/g, " ");
}
