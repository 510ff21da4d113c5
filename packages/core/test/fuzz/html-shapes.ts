/**
 * HTML shapes that once held the event loop for seconds while the plain-text part was derived
 * (issues 11 and 31), and their relatives: foreign content left open inside itself, misnested
 * formatting, unclosed tables and blocks, form and template elements, comments and CDATA where
 * the tokenizer changes state, end tags for elements never opened, and text that is mostly
 * whitespace or entities. Each `unit` is repeated to the wanted size.
 */
export interface HtmlShape {
  name: string;
  unit: string;
  /** Written once before the repeated unit. */
  prefix?: string;
  /**
   * Hundreds of thousands of `<a>` tags: link rewriting (one linear pass before the text part,
   * not sliced) holds the loop about 0.6 to 1.1 s on a loaded 2-core machine for 5 MiB of them.
   * The send test records its hold but does not bound it (issue 31 follow-up).
   */
  manyLinkTags?: boolean;
}

export const htmlShapes: HtmlShape[] = [
  { name: "MathML token left open", unit: "<math><mi>x</math>" },
  { name: "SVG desc left open", unit: "<svg><desc>x</svg>" },
  { name: "SVG foreignObject left open", unit: "<svg><foreignObject>x</svg>" },
  { name: "SVG title and annotation-xml", unit: "<svg><title>t</title><math><annotation-xml>y</svg>" },
  { name: "foreign content with comments and CDATA", unit: "<svg><!--c--><![CDATA[<b>]]><path/></svg>" },
  { name: "misnested formatting soup", unit: "<b><i>x</b></i>" },
  { name: "unclosed formatting inside a cell", unit: "<td><b><i><u>x" },
  { name: "unclosed tables", unit: "<table><tr><td>x" },
  { name: "tables closed out of order", unit: "<table><tr><td>x</table></td></tr>" },
  { name: "deep unclosed div", unit: "<div>x" },
  { name: "select and option", unit: "<select><option>x<optgroup>" },
  { name: "template left open", unit: "<template>x" },
  { name: "end tags never opened, 999 levels deep", unit: "</x>", prefix: "<span>".repeat(999) },
  { name: "stray </p> and </br>", unit: "</p></br>" },
  // In-page anchors: the text part reads them as links, the send tracks none of them (a tracked
  // link is capped at 1,000, and 87,000 `data-mailpulse-notrack` markers cost link rewriting,
  // itself linear, about a second of one pass on a loaded machine).
  { name: "nested links", unit: '<a href="#top">x', manyLinkTags: true },
  { name: "links one after another", unit: '<a href="#top">x</a>', manyLinkTags: true },
  { name: "whitespace every other character", unit: "x\t" },
  { name: "preheader filler", unit: "&zwnj;&nbsp;" },
  { name: "line breaks", unit: "x<br>" },
  { name: "entities", unit: "&amp;&#x1F600;" },
  { name: "attributes with entities", unit: '<img alt="&lt;&gt;" width=2>' },
];

/** `shape` repeated to at most `bytes` characters (all shapes are ASCII, so also bytes). */
export function htmlOfShape(shape: HtmlShape, bytes: number): string {
  const prefix = shape.prefix ?? "";
  return prefix + shape.unit.repeat(Math.floor((bytes - prefix.length) / shape.unit.length));
}
