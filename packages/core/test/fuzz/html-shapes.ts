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
   * The 400 a send of it must answer, when not the nesting refusal (which any shape may meet).
   * Default: none, the send answers 200 or the nesting refusal.
   */
  refusal?: string;
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
  // Hundreds of thousands of `<a>` tags: link rewriting held the loop 0.6 to 1.1 s over 5 MiB of
  // them before it was sliced. In-page anchors, notrack markers and the unsubscribe placeholder
  // are read as links by the text part and tracked by none; tracked links past the cap of 1,000
  // are refused, at the slice holding the 1,001st, and placeholders past 100 before any rewriting.
  { name: "nested links", unit: '<a href="#top">x' },
  { name: "links one after another", unit: '<a href="#top">x</a>' },
  { name: "links marked notrack", unit: '<a href="https://shop.example/p" data-mailpulse-notrack>x</a>' },
  {
    name: "unsubscribe placeholder links",
    unit: '<a href="{{unsubscribe_url}}">x</a>',
    refusal: 'Invalid request body: "htmlContent": holds {{unsubscribe_url}} more than 100 times',
  },
  {
    name: "tracked links past the cap",
    unit: '<a href="https://shop.example/p">x</a>',
    refusal:
      'Invalid request body: "htmlContent": has more than 1000 trackable links; mark the others data-mailpulse-notrack or set tracking.clicks to false',
  },
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
