import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { htmlToText, MAX_HTML_NESTING_DEPTH } from "../../src/html/html-to-text.js";
import { rewriteTrackedHtml } from "../../src/html/rewrite-links.js";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/html/${name}`, import.meta.url), "utf8");

describe("htmlToText", () => {
  it("leaves out the head, styles, scripts, comments and hidden preheaders", () => {
    const text = htmlToText(
      "<html><head><title>Subject line</title><style>p { color: red }</style></head><body>" +
        '<div style="display: none; max-height: 0">Preheader&nbsp;&zwnj;&nbsp;&zwnj;</div><span hidden>gone</span>' +
        "<script>alert('x')</script><!--[if mso]><p>Outlook only</p><![endif]--><!-- note --><p>Visible</p></body></html>",
    );
    expect(text).toBe("Visible");
  });

  it("keeps content that conditional comments reveal to non-Outlook clients", () => {
    expect(htmlToText("<!--[if !mso]><!-- --><p>Everyone else</p><!--<![endif]-->")).toBe("Everyone else");
  });

  it("breaks lines at blocks and <br>, and sets paragraphs apart with a blank line", () => {
    const text = htmlToText(
      "<h1>Title</h1><p>First line<br>second line<br/><br />after a gap</p><div>Block one</div><div>Block two</div><p>End</p>",
    );
    expect(text).toBe("Title\n\nFirst line\nsecond line\n\nafter a gap\n\nBlock one\nBlock two\n\nEnd");
  });

  it("renders list items as bullets", () => {
    expect(htmlToText("<p>Picks:</p><ul><li>One</li><li> Two\n </li></ul><ol><li>Three</li></ol>")).toBe(
      "Picks:\n\n- One\n- Two\n\n- Three",
    );
  });

  it("keeps table rows on one line each", () => {
    expect(
      htmlToText("<table><tr><td>Item</td><td>Qty</td></tr><tr><TD>Coffee</TD><TD>2</TD></tr></table>"),
    ).toBe("Item Qty\nCoffee 2");
  });

  it("renders links as text (url), without repeating a URL or address that is already the text", () => {
    const text = htmlToText(
      '<p><a href="https://a.example/x?a=1&amp;b=2">Read more</a> ' +
        '<A HREF="https://a.example/">https://a.example/</A> ' +
        '<a href="mailto:help@a.example">help@a.example</a> ' +
        '<a href="#top">Back to top</a> ' +
        '<a href="https://a.example/logo"><img src="logo.png" alt="Logo" width="120"></a> ' +
        '<a href="https://a.example/bare"><img src="x.png" width="40"></a></p>',
    );
    expect(text).toBe(
      "Read more (https://a.example/x?a=1&b=2) https://a.example/ help@a.example Back to top " +
        "Logo (https://a.example/logo) https://a.example/bare",
    );
  });

  it("decodes entities and collapses whitespace", () => {
    expect(
      htmlToText("<p>  Summer&rsquo;s   here &mdash;\n\tlet&#8217;s&nbsp;go &amp; see &lt;3 &#x1F332;</p>"),
    ).toBe("Summer’s here — let’s go & see <3 🌲");
  });

  it("skips pixel and spacer images, in any attribute case", () => {
    const text = htmlToText(
      '<p>Hi<img src="https://t.example/o" width="1" height="1" alt="" />' +
        '<IMG SRC="spacer.gif" WIDTH=1 HEIGHT=20 ALT="spacer"><img src="a.png" alt="Chart" width="300"></p>',
    );
    expect(text).toBe("Hi Chart");
  });

  it("keeps at most two blank lines in a row and trims the result", () => {
    expect(htmlToText("\n<br><br><p>a</p><br><br><br><br><br><br><p>b</p><br><br>\n")).toBe("a\n\n\nb");
  });

  it("accepts fragments and plain text", () => {
    expect(htmlToText("Just text &amp; more")).toBe("Just text & more");
    expect(htmlToText("")).toBe("");
  });

  it("shows tracking URLs when given rewritten HTML, and no trace of the pixel", () => {
    const { html } = rewriteTrackedHtml(fixture("receipt.html"), {
      trackClicks: true,
      trackingUrlFor: (_url, index) => `https://t.example/c/${index}?s=1&k=2`,
      pixelUrl: "https://t.example/o/1",
    });
    const text = htmlToText(html);
    expect(text).toContain("View your order (https://t.example/c/0?s=1&k=2)");
    expect(text).toContain("Privacy (https://lumen.example/legal/privacy)");
    expect(text).not.toContain("t.example/o/1");
  });

  it("turns the receipt into readable text", () => {
    expect(htmlToText(fixture("receipt.html"))).toBe(
      [
        "Lumen Coffee",
        "",
        "Thanks for your order, Dana!",
        "",
        "Order #LC-10482 · placed 3 June 2025 at 09:14",
        "",
        "Item Qty Price",
        "Ethiopia Guji, whole bean 250 g 2 €27.00",
        "Ceramic dripper “Nordic” 1 €24.50",
        "Paper filters (100) 1 €4.90",
        "Shipping €0.00",
        "Total €56.40",
        "",
        "Paid with Visa •••• 4242. Your beans ship within two working days.",
        "",
        "View your order (https://lumen.example/orders/LC-10482?token=9f2c41&utm_source=receipt)",
        "",
        "Track the parcel: 00340434161094042557 (https://tracking.parcel.example/track?nr=00340434161094042557&lang=en&cc=DE)",
        "",
        "Need an invoice for your company? Download the PDF (https://lumen.example/orders/LC-10482/invoice.pdf?download=1).",
        "",
        "Something wrong? Reply to this email, write to orders@lumen.example or call +49 30 5555 0199 (tel:+49-30-5555-0199) (Mon–Fri, 9–17 h).",
        "",
        "Lumen Coffee GmbH · Torstraße 1 · 10119 Berlin · Imprint (https://lumen.example/legal/imprint) · Privacy (https://lumen.example/legal/privacy)",
      ].join("\n"),
    );
  });

  it("keeps the newsletter's words but none of its markup, CSS or Outlook-only content", () => {
    const text = htmlToText(fixture("newsletter.html"));
    expect(text).toContain("Summer’s here — let’s get outside");
    expect(text).toContain("Shop the sale → (https://www.trailhead.example/sale?code=SUMMER20&ref=button)");
    expect(text).toContain(
      "- Sun hoodie (https://shop.trailhead.example/p/sun-hoodie?color=sand&size=m) — UPF 50",
    );
    expect(text).toContain('Remember that <a href="https://example.com"> in text is just text.');
    expect(text).not.toMatch(
      /Issue #42|@media|OfficeDocumentSettings|ref=vml|New trails near you|Not for Outlook/,
    );
    expect(text).not.toMatch(/\u200c|\u00a0|\n{4}/);
  });
});

describe("htmlToText on deep nesting", () => {
  it("reads elements nested up to the bound without overflowing the stack", () => {
    const depth = MAX_HTML_NESTING_DEPTH - 1;
    expect(htmlToText(`${"<div>".repeat(depth)}x${"</div>".repeat(depth)}`)).toBe("x");
  });

  it("refuses deeper nesting with VALIDATION_FAILED on htmlContent, also when tags are never closed", () => {
    for (const html of ["<b>".repeat(MAX_HTML_NESTING_DEPTH + 1), "<span>".repeat(340_000)]) {
      expect(() => htmlToText(html)).toThrow(
        expect.objectContaining({
          code: "VALIDATION_FAILED",
          issues: [expect.objectContaining({ path: ["htmlContent"] })],
        }),
      );
    }
  });

  it("does not count closed siblings, void elements or implicitly closed paragraphs as depth", () => {
    const many = "<p>a<br><img alt='i'>".repeat(5000);
    expect(htmlToText(many).split("\n\n")).toHaveLength(5000);
  });
});
