import { readFileSync } from "node:fs";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { rewriteTrackedHtml } from "../../src/html/rewrite-links.js";
import { generateLargeNewsletter } from "../fixtures/html/generate-large-newsletter.js";

/*
 * The fidelity contract: the rewritten email equals the original except at the href values we
 * rewrote, the `data-mailpulse-notrack` markers we removed, and the one pixel we added.
 *
 * The expected edit sites are located here by a deliberately simple, regex-based scan that is
 * independent of the implementation (it only has to be right for these fixtures: no `>` inside
 * a/area attribute values, comments without `<!-->`). Then output and input are walked side by side
 * and every byte between edit sites must match exactly.
 */

const PIXEL_URL = "https://t.mailpulse.test/o/abc?e=1&v=2";
const PIXEL_TAG =
  '<img src="https://t.mailpulse.test/o/abc?e=1&amp;v=2" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" />';

/** Contains `&` so the test also sees that the written value is escaped. */
function trackingUrlFor(_url: string, index: number): string {
  return `https://t.mailpulse.test/c/${index}?sig=${(index * 2654435761) % 4294967296}&k=1`;
}

interface EditSite {
  kind: "href" | "notrack" | "pixel";
  start: number;
  end: number;
  quote?: '"' | "'" | "";
}

/** Replaces comments, CDATA and raw-text elements with spaces so offsets stay put. */
function maskNonMarkup(html: string): string {
  const blank = (match: string) => " ".repeat(match.length);
  return html
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, blank)
    .replace(/<(script|style|title|textarea)\b[\s\S]*?<\/\1\s*>/gi, blank);
}

function findEditSites(html: string): EditSite[] {
  const masked = maskNonMarkup(html);
  const sites: EditSite[] = [];
  for (const tag of masked.matchAll(/<(?:a|area)(\s[^>]*)?>/gi)) {
    const attributesStart = tag.index + tag[0].length - (tag[1]?.length ?? 0) - 1;
    let sawHref = false;
    let notrack = false;
    let href: EditSite | undefined;
    for (const attribute of (tag[1] ?? "").matchAll(
      /(\s+)([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?/g,
    )) {
      const [whole, , name = "", value] = attribute;
      const start = attributesStart + attribute.index;
      if (name.toLowerCase() === "data-mailpulse-notrack") {
        notrack = true;
        sites.push({ kind: "notrack", start, end: start + whole.length });
      } else if (name.toLowerCase() === "href" && !sawHref) {
        sawHref = true;
        if (value !== undefined) {
          const quote = value.startsWith('"') ? '"' : value.startsWith("'") ? "'" : "";
          const valueEnd = start + whole.length - quote.length;
          href = { kind: "href", start: valueEnd - (value.length - 2 * quote.length), end: valueEnd, quote };
        }
      }
    }
    // A link carrying the notrack marker is never rewritten; model it as no href edit site.
    if (href && !notrack) sites.push(href);
  }
  const bodyEnd = masked.toLowerCase().lastIndexOf("</body");
  sites.push({
    kind: "pixel",
    start: bodyEnd === -1 ? html.length : bodyEnd,
    end: bodyEnd === -1 ? html.length : bodyEnd,
  });
  return sites.sort((a, b) => a.start - b.start);
}

function testDecode(raw: string): string {
  return raw
    .replace(/&(?:amp|#38|#x26);/gi, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/^[\s]+|[\s]+$/g, "");
}

function testEscape(url: string, quote: '"' | "'" | ""): string {
  const escaped = url.replace(/&/g, "&amp;");
  return quote === "" ? `"${escaped}"` : escaped;
}

/**
 * Checks output against input segment by segment. Returns the raw href values that were left
 * unchanged, in document order, so the caller can assert exactly which links were skipped.
 */
function expectFaithfulRewrite(input: string): { skipped: string[]; linkCount: number } {
  const { html: output, links } = rewriteTrackedHtml(input, {
    trackClicks: true,
    trackingUrlFor,
    pixelUrl: PIXEL_URL,
  });
  const skipped: string[] = [];
  let inputAt = 0;
  let outputAt = 0;
  let rewritten = 0;
  const expectSameBytes = (segment: string) => {
    const actual = output.slice(outputAt, outputAt + segment.length);
    if (actual !== segment) {
      // Narrow the failure to the first differing character to make the report readable.
      let i = 0;
      while (actual[i] === segment[i]) i += 1;
      expect(actual.slice(i, i + 80), `output differs at input offset ${inputAt + i}`).toBe(
        segment.slice(i, i + 80),
      );
    }
    outputAt += segment.length;
  };

  for (const site of findEditSites(input)) {
    expectSameBytes(input.slice(inputAt, site.start));
    inputAt = site.start;
    if (site.kind === "pixel") {
      expectSameBytes(PIXEL_TAG);
      continue;
    }
    if (site.kind === "notrack") {
      inputAt = site.end; // removed: nothing to consume in the output
      continue;
    }
    const raw = input.slice(site.start, site.end);
    const expected = testEscape(trackingUrlFor("", rewritten), site.quote ?? '"');
    if (output.startsWith(expected, outputAt)) {
      expect(links[rewritten]).toEqual({
        originalUrl: testDecode(raw),
        trackingUrl: trackingUrlFor("", rewritten),
      });
      outputAt += expected.length;
      rewritten += 1;
    } else {
      expectSameBytes(raw);
      skipped.push(raw);
    }
    inputAt = site.end;
  }
  expectSameBytes(input.slice(inputAt));
  expect(outputAt).toBe(output.length);
  expect(rewritten).toBe(links.length);
  return { skipped, linkCount: links.length };
}

const fixture = (name: string) => readFileSync(new URL(`../fixtures/html/${name}`, import.meta.url), "utf8");

describe("rewriteTrackedHtml keeps every other byte", () => {
  it("newsletter: XHTML, conditional comments with VML, media queries, legacy upper-case markup", () => {
    const { skipped, linkCount } = expectFaithfulRewrite(fixture("newsletter.html"));
    expect(linkCount).toBe(20);
    expect(skipped).toEqual([
      "*|ARCHIVE|*",
      "#south",
      "https://www.trailhead.example/account/{{member_id}}/points",
      "https://www.trailhead.example/refer?code=%%member_code%%",
      "mailto:crew@trailhead.example?subject=Issue%2042&amp;body=Hi",
      "tel:+15555550142",
      "sms:+15555550142",
      "stories/issue-42.html",
      "javascript:void(0)",
      "{{unsubscribe_url}}",
      "#top",
    ]);
  });

  it("newsletter: the notrack links keep their URL and lose the marker", () => {
    const input = fixture("newsletter.html");
    const { html } = rewriteTrackedHtml(input, { trackClicks: true, trackingUrlFor });
    expect(html).not.toContain("data-mailpulse-notrack");
    expect(html).toContain(
      '<a href="https://www.trailhead.example/trails/canyon?from=email&amp;issue=42" style="color:#2e7d32;">See the map</a>',
    );
    expect(html).toContain(
      '<a href="https://www.trailhead.example/preferences" style="color: #6b7280; text-decoration: underline;">Email preferences</a>',
    );
    // Conditional-comment VML is a comment: Outlook's button keeps its original URL.
    expect(html).toContain('href="https://www.trailhead.example/sale?code=SUMMER20&amp;ref=vml"');
  });

  it("transactional receipt", () => {
    const { skipped, linkCount } = expectFaithfulRewrite(fixture("receipt.html"));
    expect(linkCount).toBe(4);
    expect(skipped).toEqual(["mailto:orders@lumen.example", "tel:+49-30-5555-0199"]);
  });

  it("fragment without <html> or <body>: pixel appended at the end", () => {
    const input = fixture("fragment.html");
    const { skipped, linkCount } = expectFaithfulRewrite(input);
    expect(linkCount).toBe(3);
    expect(skipped).toEqual(["mailto:help@atlas.example"]);
  });

  it("generated ~500 KB catalogue with hundreds of links", () => {
    const input = generateLargeNewsletter();
    expect(input.length).toBeGreaterThan(480_000);
    const { skipped, linkCount } = expectFaithfulRewrite(input);
    // 540 sections x 2 trackable links; skipped: 135 mailto (i % 4) + 54 placeholders (i % 10).
    expect(linkCount).toBe(1080);
    expect(skipped).toHaveLength(135 + 54);
  });

  it("is the identity with tracking off and no pixel", () => {
    const input = fixture("receipt.html").replace(" data-mailpulse-notrack", "");
    expect(rewriteTrackedHtml(input, { trackClicks: false, trackingUrlFor }).html).toBe(input);
  });

  it("why we splice: a DOM round-trip through linkedom would not preserve the newsletter", () => {
    const input = fixture("newsletter.html");
    expect(parseHTML(input).document.toString()).not.toBe(input);
  });
});
