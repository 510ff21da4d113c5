import { decodeHTMLAttribute } from "entities";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isTrackableUrl } from "../../src/html/classify-url.js";
import { decodeAttribute, escapeAttribute } from "../../src/html/decode-attribute.js";
import { findLinkAttributes } from "../../src/html/find-link-attributes.js";
import { type RewriteTrackedHtmlOptions, rewriteTrackedHtml } from "../../src/html/rewrite-links.js";

const PIXEL_ATTRIBUTES =
  'width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" />';

/** Rewrites with a predictable tracking URL per occurrence and records every callback call. */
function rewrite(html: string, options: Partial<RewriteTrackedHtmlOptions> = {}) {
  const calls: Array<[string, number]> = [];
  const result = rewriteTrackedHtml(html, {
    trackClicks: true,
    trackingUrlFor: (url, index) => {
      calls.push([url, index]);
      return `https://t.test/c/${index}`;
    },
    ...options,
  });
  return { ...result, calls };
}

describe("rewriteTrackedHtml: which links are rewritten", () => {
  it("rewrites a double-quoted href and leaves every other byte alone", () => {
    const { html, links } = rewrite('<p class=x>Hi <a  title="t" href="https://a.example/x">A</a>!</p>');
    expect(html).toBe('<p class=x>Hi <a  title="t" href="https://t.test/c/0">A</a>!</p>');
    expect(links).toEqual([{ originalUrl: "https://a.example/x", trackingUrl: "https://t.test/c/0" }]);
  });

  it("finds upper-case and mixed-case tags and attribute names", () => {
    const { html } = rewrite('<A HREF="https://a.example/1">1</A><a Href="https://a.example/2">2</a>');
    expect(html).toBe('<A HREF="https://t.test/c/0">1</A><a Href="https://t.test/c/1">2</a>');
  });

  it("keeps single quotes, and quotes an unquoted value", () => {
    const { html } = rewrite("<a href='https://a.example/s'>s</a><a href=https://a.example/u?q=1>u</a>");
    expect(html).toBe("<a href='https://t.test/c/0'>s</a><a href=\"https://t.test/c/1\">u</a>");
  });

  it("handles whitespace around = and self-closing syntax", () => {
    const { html } = rewrite('<a href = "https://a.example/" />x');
    expect(html).toBe('<a href = "https://t.test/c/0" />x');
  });

  it("rewrites <area> hrefs, including upper case", () => {
    const { html, links } = rewrite(
      '<map><area shape=rect href="https://a.example/l" /><AREA HREF=https://a.example/r></map>',
    );
    expect(html).toBe(
      '<map><area shape=rect href="https://t.test/c/0" /><AREA HREF="https://t.test/c/1"></map>',
    );
    expect(links.map((link) => link.originalUrl)).toEqual(["https://a.example/l", "https://a.example/r"]);
  });

  it("leaves valueless and empty hrefs alone", () => {
    const input = '<a href>a</a><a href="">b</a><a href=\'\'>c</a><a name="top">d</a>';
    expect(rewrite(input)).toMatchObject({ html: input, links: [] });
  });

  it("only considers the first href of a tag, as browsers do", () => {
    const { html } = rewrite('<a href="https://a.example/1" href="https://a.example/2">x</a>');
    expect(html).toBe('<a href="https://t.test/c/0" href="https://a.example/2">x</a>');
    expect(rewrite('<a href href="https://a.example/2">x</a>').links).toEqual([]);
  });

  it("ignores href on other elements", () => {
    const input =
      '<link href="https://a.example/s.css" rel=stylesheet><base href="https://a.example/"><img src="https://a.example/i.png"><abbr href="https://a.example/">x</abbr><v:roundrect href="https://a.example/vml"></v:roundrect>';
    expect(rewrite(input)).toMatchObject({ html: input, links: [] });
  });

  it.each([
    ["a comment", '<!-- <a href="https://a.example/">x</a> -->'],
    ["an Outlook conditional comment", '<!--[if mso]><a href="https://a.example/">x</a><![endif]-->'],
    [
      "conditional-comment VML",
      '<!--[if mso]><v:roundrect href="https://a.example/" arcsize="10%"><w:anchorlock/></v:roundrect><![endif]-->',
    ],
    ["a script", "<script>document.write('<a href=\"https://a.example/\">x</a>')</script>"],
    ["a style", '<style>.x::after { content: "<a href=https://a.example/>" }</style>'],
    ["CDATA", '<svg><![CDATA[<a href="https://a.example/">x</a>]]></svg>'],
    ["a title", '<title><a href="https://a.example/">x</a></title>'],
    ["a textarea", '<textarea><a href="https://a.example/">x</a></textarea>'],
    ["escaped text", "&lt;a href=&quot;https://a.example/&quot;&gt;"],
  ])("does not touch <a href> inside %s", (_where, input) => {
    expect(rewrite(input)).toMatchObject({ html: input, links: [] });
  });

  it("finds links again after a conditional comment closes", () => {
    const { html } = rewrite(
      '<!--[if !mso]><!-- --><a href="https://a.example/">x</a><!--<![endif]--><![if !mso]><a href="https://b.example/">y</a><![endif]>',
    );
    expect(html).toBe(
      '<!--[if !mso]><!-- --><a href="https://t.test/c/0">x</a><!--<![endif]--><![if !mso]><a href="https://t.test/c/1">y</a><![endif]>',
    );
  });

  it("leaves a tag cut off by the end of input alone", () => {
    const input = '<p>x</p><a href="https://a.example/"';
    expect(rewrite(input)).toMatchObject({ html: input, links: [] });
  });
});

describe("rewriteTrackedHtml: URL handling", () => {
  it("decodes &amp; once for the callback and escapes the tracking URL on the way back", () => {
    const seen: string[] = [];
    const { html } = rewrite('<a href="https://a.example/?a=1&amp;b=2&amp;amp;c=3">x</a>', {
      trackingUrlFor: (url, index) => {
        seen.push(url);
        return `https://t.test/c/${index}?sig=a&n=1`;
      },
    });
    expect(seen).toEqual(["https://a.example/?a=1&b=2&amp;c=3"]);
    expect(html).toBe('<a href="https://t.test/c/0?sig=a&amp;n=1">x</a>');
  });

  it("decodes numeric and named references, but not a legacy name followed by =", () => {
    const { calls } = rewrite(
      '<a href="https://a.example/?a=1&#38;b=2&#x26;c=3">1</a><a href="https://a.example/&quot;q&quot;">2</a><a href="https://a.example/?x=1&copy=2">3</a>',
    );
    expect(calls.map(([url]) => url)).toEqual([
      "https://a.example/?a=1&b=2&c=3",
      'https://a.example/"q"',
      "https://a.example/?x=1&copy=2",
    ]);
  });

  it("escapes the attribute's own quote character in the tracking URL", () => {
    const options = { trackingUrlFor: () => `https://t.test/?q="a"&s='b'` };
    expect(rewrite('<a href="https://a.example/">x</a>', options).html).toBe(
      "<a href=\"https://t.test/?q=&quot;a&quot;&amp;s='b'\">x</a>",
    );
    expect(rewrite("<a href='https://a.example/'>x</a>", options).html).toBe(
      "<a href='https://t.test/?q=\"a\"&amp;s=&#39;b&#39;'>x</a>",
    );
    expect(rewrite("<a href=https://a.example/>x</a>", options).html).toBe(
      "<a href=\"https://t.test/?q=&quot;a&quot;&amp;s='b'\">x</a>",
    );
  });

  it("passes query order and #fragment through exactly, trimming surrounding whitespace only", () => {
    const { calls } = rewrite(
      '<a href="https://a.example/p?z=1&amp;a=2&amp;z=3#frag?x">1</a><a href="\n  https://a.example/s p  \t">2</a>',
    );
    expect(calls).toEqual([
      ["https://a.example/p?z=1&a=2&z=3#frag?x", 0],
      ["https://a.example/s p", 1],
    ]);
  });

  it("calls trackingUrlFor once per occurrence in document order, also for repeated URLs", () => {
    const { calls, links } = rewrite(
      '<a href="https://a.example/">1</a><a href="mailto:x@a.example">m</a><a href="https://a.example/">2</a>',
    );
    expect(calls).toEqual([
      ["https://a.example/", 0],
      ["https://a.example/", 1],
    ]);
    expect(links.map((link) => link.trackingUrl)).toEqual(["https://t.test/c/0", "https://t.test/c/1"]);
  });

  it.each([
    "mailto:someone@example.com",
    "MAILTO:someone@example.com",
    "tel:+15555550100",
    "sms:+15555550100",
    "#section-2",
    "javascript:alert(1)",
    " JavaScript:alert(1)",
    "data:text/html;base64,PGgxPkhpPC9oMT4=",
    "/relative/path",
    "relative.html",
    "//cdn.example.com/protocol-relative",
    "ftp://files.example.com/a",
    "https://",
    "https://x.example.com/{{unsubscribe}}",
    "{{view_in_browser_url}}",
    "https://x.example.com/?u={{ user.id }}&l=1",
    "*|UNSUB|*",
    "https://x.example.com/a?e=*|EMAIL|*",
    "%%view_email_url%%",
    "https://x.example.com/p?c=%%=v(@code)=%%",
  ])("does not rewrite %s", (url) => {
    const input = `<a href="${url.replace(/&/g, "&amp;")}">x</a>`;
    expect(rewrite(input)).toMatchObject({ html: input, links: [] });
    expect(isTrackableUrl(url)).toBe(false);
  });

  it.each([
    "http://a.example",
    "https://a.example/",
    "HTTPS://A.EXAMPLE/PATH",
    "HtTp://a.example:8080/x?y=1#z",
    "  https://a.example/padded\n",
    "https://a.example/100%25-off",
    "https://a.example/{single}-braces",
  ])("treats %s as trackable", (url) => {
    expect(isTrackableUrl(url)).toBe(true);
  });
});

describe("rewriteTrackedHtml: data-mailpulse-notrack", () => {
  it("removes the marker with its leading whitespace and leaves the link as written", () => {
    const { html, links } = rewrite(
      '<a data-mailpulse-notrack href="https://a.example/1">1</a><a href=\'https://a.example/2\'\n   DATA-MAILPULSE-NOTRACK="true">2</a><a href=https://a.example/3 data-mailpulse-notrack=yes class=c>3</a>',
    );
    expect(html).toBe(
      "<a href=\"https://a.example/1\">1</a><a href='https://a.example/2'>2</a><a href=https://a.example/3 class=c>3</a>",
    );
    expect(links).toEqual([]);
  });

  it("removes the marker on <area> and on a self-closing tag", () => {
    expect(rewrite('<area href="https://a.example/" data-mailpulse-notrack />').html).toBe(
      '<area href="https://a.example/" />',
    );
  });

  it("removes the marker even when click tracking is off", () => {
    const { html, calls } = rewrite('<a data-mailpulse-notrack href="https://a.example/">x</a>', {
      trackClicks: false,
    });
    expect(html).toBe('<a href="https://a.example/">x</a>');
    expect(calls).toEqual([]);
  });

  it("matches names in ASCII letter case only, as the HTML tokenizer does", () => {
    // U+212A KELVIN SIGN lower-cases to "k" in JavaScript, but a browser keeps it: not the marker.
    const input = '<a href="https://a.example/" data-mailpulse-notrac\u212a>x</a>';
    expect(rewrite(input).links).toHaveLength(1);
    expect(rewrite(input).html).toBe('<a href="https://t.test/c/0" data-mailpulse-notrac\u212a>x</a>');
  });

  it("leaves the marker on other elements and inside comments", () => {
    const input =
      '<div data-mailpulse-notrack>x</div><!-- <a data-mailpulse-notrack href="https://a.example/"> -->';
    expect(rewrite(input).html).toBe(input);
  });
});

describe("rewriteTrackedHtml: open pixel and trackClicks", () => {
  const pixel = (url: string) => `<img src="${url}" ${PIXEL_ATTRIBUTES}`;

  it("injects the pixel right before </body>, in any letter case", () => {
    expect(rewrite("<html><body><p>x</p></body></html>", { pixelUrl: "https://t.test/o/1" }).html).toBe(
      `<html><body><p>x</p>${pixel("https://t.test/o/1")}</body></html>`,
    );
    expect(rewrite("<BODY>x\n</BODY >\n", { pixelUrl: "https://t.test/o/1" }).html).toBe(
      `<BODY>x\n${pixel("https://t.test/o/1")}</BODY >\n`,
    );
  });

  it("uses the last </body> when there are several, ignoring one in a comment", () => {
    const input = "<body>a</body><body>b</body>c<!-- </body> -->";
    expect(rewrite(input, { pixelUrl: "https://t.test/o" }).html).toBe(
      `<body>a</body><body>b${pixel("https://t.test/o")}</body>c<!-- </body> -->`,
    );
  });

  it("appends the pixel when there is no </body>", () => {
    expect(rewrite("<p>fragment</p>\n", { pixelUrl: "https://t.test/o" }).html).toBe(
      `<p>fragment</p>\n${pixel("https://t.test/o")}`,
    );
    expect(rewrite("<p><!-- </body> --></p>", { pixelUrl: "https://t.test/o" }).html).toBe(
      `<p><!-- </body> --></p>${pixel("https://t.test/o")}`,
    );
  });

  it("escapes the pixel URL", () => {
    expect(rewrite("", { pixelUrl: 'https://t.test/o?a=1&b="2"' }).html).toBe(
      pixel("https://t.test/o?a=1&amp;b=&quot;2&quot;"),
    );
  });

  it("adds no pixel without pixelUrl", () => {
    const input = "<body>x</body>";
    expect(rewrite(input).html).toBe(input);
    expect(rewrite(input, { pixelUrl: "" }).html).toBe(input);
  });

  it("keeps link order when links follow the last </body>", () => {
    const { html } = rewrite(
      '<body><a href="https://a.example/1">1</a></body><a href="https://a.example/2">2</a>',
      {
        pixelUrl: "https://t.test/o",
      },
    );
    expect(html).toBe(
      `<body><a href="https://t.test/c/0">1</a>${pixel("https://t.test/o")}</body><a href="https://t.test/c/1">2</a>`,
    );
  });

  it("rewrites no href when trackClicks is false but still injects the pixel", () => {
    const { html, links, calls } = rewrite('<body><a href="https://a.example/">x</a></body>', {
      trackClicks: false,
      pixelUrl: "https://t.test/o",
    });
    expect(html).toBe(`<body><a href="https://a.example/">x</a>${pixel("https://t.test/o")}</body>`);
    expect(links).toEqual([]);
    expect(calls).toEqual([]);
  });
});

describe("attribute helpers", () => {
  it("decodes exactly once", () => {
    expect(decodeAttribute("a&amp;b&amp;amp;c&#38;d&#x26;e&lt;f&gt;g&quot;h")).toBe('a&b&amp;c&d&e<f>g"h');
    expect(decodeAttribute("plain")).toBe("plain");
  });

  // Pieces that reach both the `&amp;`-only shortcut and the full decoder, and every branch between.
  const attributeText = fc
    .array(
      fc.constantFrom(
        "&",
        "amp;",
        "amp",
        "&amp;",
        ";",
        "#38;",
        "#x26;",
        "copy",
        "=",
        "a",
        "lt;",
        '"',
        "'",
        "{{",
        "%%",
        "*|",
        "é",
      ),
      {
        maxLength: 12,
      },
    )
    .map((pieces) => pieces.join(""));

  it("decodes like the HTML standard's attribute rules, with or without the &amp; shortcut", () => {
    fc.assert(
      fc.property(attributeText, (raw) => {
        expect(decodeAttribute(raw)).toBe(decodeHTMLAttribute(raw));
      }),
      { numRuns: 2000 },
    );
    expect(decodeAttribute("?a=1&amp;b=2&amp;amp;c")).toBe("?a=1&b=2&amp;c");
    expect(decodeAttribute("?a=1&amp;b=2&copy=3")).toBe("?a=1&b=2&copy=3");
  });

  it("escapes any value so that decoding gives it back, and leaves no bare delimiter", () => {
    fc.assert(
      fc.property(attributeText, fc.constantFrom("double", "single", "unquoted" as const), (value, quote) => {
        const escaped = escapeAttribute(value, quote);
        const inner = quote === "unquoted" ? escaped.slice(1, -1) : escaped;
        expect(decodeAttribute(inner)).toBe(value);
        expect(inner).not.toContain(quote === "single" ? "'" : '"');
      }),
      { numRuns: 2000 },
    );
  });

  it("escapes for each quote style so that decoding gives the value back", () => {
    const value = `https://t.test/?a=1&b="x"&c='y'&amp;`;
    expect(escapeAttribute(value, "double")).toBe(
      "https://t.test/?a=1&amp;b=&quot;x&quot;&amp;c='y'&amp;amp;",
    );
    expect(escapeAttribute(value, "single")).toBe(`https://t.test/?a=1&amp;b="x"&amp;c=&#39;y&#39;&amp;amp;`);
    expect(escapeAttribute(value, "unquoted")).toBe(
      "\"https://t.test/?a=1&amp;b=&quot;x&quot;&amp;c='y'&amp;amp;\"",
    );
    for (const quote of ["double", "single"] as const) {
      expect(decodeAttribute(escapeAttribute(value, quote))).toBe(value);
    }
  });

  it("reports exact value spans and the last </body> offset", () => {
    const html = `<a href="x">1</a><AREA HREF='yy'><a href=zzz data-mailpulse-notrack>3</a></Body>`;
    const scan = findLinkAttributes(html);
    const values = scan.links.map(
      (link) => link.href && [html.slice(link.href.start, link.href.end), link.href.quote],
    );
    expect(values).toEqual([
      ["x", "double"],
      ["yy", "single"],
      ["zzz", "unquoted"],
    ]);
    const notrack = scan.links[2]?.notrackAttributes[0];
    expect(notrack && html.slice(notrack.start, notrack.end)).toBe(" data-mailpulse-notrack");
    expect(scan.lastBodyEndTagOffset).toBe(html.indexOf("</Body>"));
  });
});
