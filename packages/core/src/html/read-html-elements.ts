import { Tokenizer } from "htmlparser2";

/** What {@link readHtmlElements} reports, in document order. */
export interface HtmlElementHandler {
  /**
   * An element opens. `depth` is how many elements are open outside it. `attributes` holds own
   * properties only (read them with `Object.hasOwn` where a name like `constructor` matters); of
   * duplicate attributes the first wins, as in browsers.
   */
  onOpen(name: string, attributes: Readonly<Record<string, string>>, depth: number): void;
  /** Text, entities decoded; consecutive calls may split one run of text. */
  onText(text: string): void;
  /** The innermost open element closes (every `onOpen` gets exactly one `onClose`, voids at once). */
  onClose(name: string): void;
}

/** Elements with no content and no end tag. */
const VOID_ELEMENTS = new Set([
  ...["area", "base", "basefont", "br", "col", "command", "embed", "frame", "hr", "img"],
  ...["input", "isindex", "keygen", "link", "meta", "param", "source", "track", "wbr"],
]);
const FORM_TAGS = new Set(["input", "option", "optgroup", "select", "button", "datalist", "textarea"]);
const P_TAG = new Set(["p"]);
const TABLE_SECTION_TAGS = new Set(["thead", "tbody"]);
const DD_DT_TAGS = new Set(["dd", "dt"]);
const RT_RP_TAGS = new Set(["rt", "rp"]);
/** Start tags that close the open element first while it is one of the set (htmlparser2's table). */
const OPEN_IMPLIES_CLOSE = new Map<string, Set<string>>([
  ["tr", new Set(["tr", "th", "td"])],
  ["th", new Set(["th"])],
  ["td", new Set(["thead", "th", "td"])],
  ["body", new Set(["head", "link", "script"])],
  ["li", new Set(["li"])],
  ["option", new Set(["option"])],
  ["optgroup", new Set(["optgroup", "option"])],
  ["tbody", TABLE_SECTION_TAGS],
  ["tfoot", TABLE_SECTION_TAGS],
  ...["dd", "dt"].map((tag): [string, Set<string>] => [tag, DD_DT_TAGS]),
  ...["rt", "rp"].map((tag): [string, Set<string>] => [tag, RT_RP_TAGS]),
  ...["select", "input", "output", "button", "datalist", "textarea"].map((tag): [string, Set<string>] => [
    tag,
    FORM_TAGS,
  ]),
  ...[
    ...["p", "h1", "h2", "h3", "h4", "h5", "h6", "address", "article", "aside", "blockquote"],
    ...["details", "div", "dl", "fieldset", "figcaption", "figure", "footer", "form", "header"],
    ...["hr", "main", "nav", "ol", "pre", "section", "table", "ul"],
  ].map((tag): [string, Set<string>] => [tag, P_TAG]),
]);
/** Roots of foreign (SVG, MathML) content, where `<x/>` closes itself. */
const FOREIGN_ROOTS = new Set(["math", "svg"]);
/** Elements inside foreign content whose children are HTML again. */
const HTML_INTEGRATION_POINTS = new Set([
  ...["mi", "mo", "mn", "ms", "mtext", "annotation-xml", "foreignobject", "desc", "title"],
]);

interface OpenElement {
  name: string;
  /** Whether `<x/>` directly inside this element closes itself (foreign content). */
  foreign: boolean;
}

/**
 * Reads HTML as a stream of element opens, texts and closes, nesting elements the way
 * htmlparser2's `Parser` does (its table of start tags that close open ones, void elements, an
 * unmatched `</p>` as an empty paragraph, `</br>` as `<br>`, self-closing tags in SVG and MathML,
 * end tags without an open element ignored, everything still open closed at the end), on
 * htmlparser2's tokenizer. Comments, CDATA, declarations and processing instructions are skipped.
 *
 * Why not the `Parser` itself: it keeps its open elements and foreign-content flags in arrays it
 * `unshift`s and `indexOf`s at the front, so each tag cost time in proportion to what was open,
 * and `<math><mi>x</math>` grew the flags by one per repetition without ever opening deeper: 5 MiB
 * of it held the event loop for 55 s (issue 31). Here the open elements are a stack used at its
 * end, with a count of open elements per name, so every tag costs amortized constant time whatever
 * the shape: each element is pushed once and popped once, an end tag for a name not open is
 * answered from the count. The whole read is linear in the length of the HTML.
 */
export function readHtmlElements(html: string, handler: HtmlElementHandler): void {
  const reader = createHtmlElementReader(html, handler);
  reader.readUntil(html.length);
  reader.finish();
}

/** Reads one HTML string a part at a time; see {@link readHtmlElements} for what it reports. */
export interface HtmlElementReader {
  /** Reads up to (not including) offset `end`; an element or text cut there continues later. */
  readUntil(end: number): void;
  /** Reads what was cut off at the end and closes every element still open. */
  finish(): void;
}

/**
 * {@link readHtmlElements} in parts, so a caller can give the event loop back between them: the
 * tokenizer is fed slices of `html` and every offset it reports is into `html` itself.
 */
export function createHtmlElementReader(html: string, handler: HtmlElementHandler): HtmlElementReader {
  const stack: OpenElement[] = [];
  const openCount = new Map<string, number>();
  let tagName = "";
  let attributes: Record<string, string> = {};
  let attributeName = "";
  let attributeValue = "";

  const push = (name: string) => {
    const parentForeign = stack.length > 0 && stack[stack.length - 1]!.foreign;
    const foreign = FOREIGN_ROOTS.has(name)
      ? true
      : HTML_INTEGRATION_POINTS.has(name)
        ? false
        : parentForeign;
    stack.push({ name, foreign });
    openCount.set(name, (openCount.get(name) ?? 0) + 1);
  };
  const pop = () => {
    const element = stack.pop();
    if (element === undefined) return;
    openCount.set(element.name, (openCount.get(element.name) ?? 1) - 1);
    handler.onClose(element.name);
  };
  const beginOpenTag = (name: string) => {
    const implied = OPEN_IMPLIES_CLOSE.get(name);
    if (implied !== undefined) {
      while (stack.length > 0 && implied.has(stack[stack.length - 1]!.name)) pop();
    }
    tagName = name;
    attributes = {};
  };
  /** Reports the start tag; returns whether the element stays open. */
  const finishOpenTag = (): boolean => {
    const name = tagName;
    tagName = "";
    handler.onOpen(name, attributes, stack.length);
    if (VOID_ELEMENTS.has(name)) {
      handler.onClose(name);
      return false;
    }
    push(name);
    return true;
  };

  const tokenizer = new Tokenizer(
    { xmlMode: false, decodeEntities: true },
    {
      onopentagname(start, end) {
        beginOpenTag(html.slice(start, end).toLowerCase());
      },
      onattribname(start, end) {
        attributeName = html.slice(start, end).toLowerCase();
        attributeValue = "";
      },
      onattribdata(start, end) {
        attributeValue += html.slice(start, end);
      },
      onattribentity(codePoint) {
        attributeValue += String.fromCodePoint(codePoint);
      },
      onattribend() {
        // `__proto__` is skipped: assigning it would not make an own property anyway.
        if (tagName !== "" && attributeName !== "__proto__" && !Object.hasOwn(attributes, attributeName)) {
          attributes[attributeName] = attributeValue;
        }
        attributeValue = "";
      },
      onopentagend() {
        finishOpenTag();
      },
      onselfclosingtag() {
        // Only in foreign content, and judged with the new element's own context as htmlparser2
        // does: `<svg/>` closes itself, `<div/>` in HTML does not.
        const foreignHere = FOREIGN_ROOTS.has(tagName)
          ? true
          : HTML_INTEGRATION_POINTS.has(tagName)
            ? false
            : stack.length > 0 && stack[stack.length - 1]!.foreign;
        if (finishOpenTag() && foreignHere) pop();
      },
      onclosetag(start, end) {
        const name = html.slice(start, end).toLowerCase();
        if (VOID_ELEMENTS.has(name)) {
          if (name === "br") {
            handler.onOpen("br", {}, stack.length);
            handler.onClose("br");
          }
        } else if ((openCount.get(name) ?? 0) > 0) {
          let closed: OpenElement | undefined;
          do {
            closed = stack[stack.length - 1];
            pop();
          } while (closed !== undefined && closed.name !== name);
        } else if (name === "p") {
          beginOpenTag("p");
          if (finishOpenTag()) pop();
        }
      },
      ontext(start, end) {
        handler.onText(html.slice(start, end));
      },
      ontextentity(codePoint) {
        handler.onText(String.fromCodePoint(codePoint));
      },
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {
        while (stack.length > 0) pop();
      },
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
  };
}
