/**
 * Issue 31: link rewriting held the event loop 0.6 to 1.1 s over 5 MiB of `<a>` tags. The send path
 * now rewrites in slices (`rewriteTrackedHtmlInSlices`); these properties check that wherever the
 * slices are cut, the result is the synchronous one byte for byte, with the same `trackingUrlFor`
 * calls in the same order, and the same error at the same link when `trackingUrlFor` throws.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type RewriteTrackedHtmlOptions,
  rewriteTrackedHtml,
  rewriteTrackedHtmlInSlices,
} from "../../src/html/rewrite-links.js";

/** Pieces whose joins cut tags, attribute values, comments and raw text at every kind of place. */
const pieces = [
  '<a href="https://a.example/x">',
  "<a href='https://a.example/y?q=1&amp;r=2'>",
  "<a href=https://a.example/z>",
  '<A HREF="  https://a.example/w  ">',
  '<area href="https://a.example/area" data-mailpulse-notrack>',
  '<a data-mailpulse-notrack href="https://a.example/n">',
  '<a href="https://a.example/d" data-mailpulse-notrack="" data-mailpulse-notrack>',
  '<a href="{{unsubscribe_url}}">',
  '<a href="mailto:x@example.com">',
  '<a href="#top">',
  "<a href>",
  '<a href="https://a.example/1" href="https://a.example/2">',
  "</a>",
  "<a",
  " href=",
  '"https://a.example/cut"',
  ">",
  "<",
  "</body>",
  "</BODY >",
  "</ body>",
  "<body>",
  "<!-- <a href='https://a.example/c'> -->",
  "<!--",
  "-->",
  "<script>var a = '<a href=\"https://a.example/s\">';</script>",
  "<style>a{}</style>",
  "<![CDATA[<a href='https://a.example/cd'>]]>",
  "<svg><a href='https://a.example/svg'/></svg>",
  "<textarea><a href='https://a.example/t'></textarea>",
  "text ",
  "😀",
  "é",
  "\n",
  "&amp;",
];

const html = fc.array(fc.constantFrom(...pieces), { maxLength: 50 }).map((chosen) => chosen.join(""));

/** Runs one rewrite, recording the callback calls and turning a throw into a value. */
async function outcome(
  rewrite: (options: RewriteTrackedHtmlOptions) => Promise<unknown> | unknown,
  failAt: number,
  pixelUrl: string | undefined,
  trackClicks: boolean,
) {
  const calls: Array<[string, number]> = [];
  try {
    const result = await rewrite({
      trackClicks,
      pixelUrl,
      keepLinksWith: ["{{unsubscribe_url}}"],
      trackingUrlFor: (url, index) => {
        calls.push([url, index]);
        if (index === failAt) throw new Error(`too many links at ${index}`);
        return `https://t.test/c/${index}?a=1&b="${index}"`;
      },
    });
    return { result, calls };
  } catch (error) {
    return { error: (error as Error).message, calls };
  }
}

describe("rewriteTrackedHtmlInSlices", () => {
  it("gives the synchronous result byte for byte, wherever the slices are cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        html,
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 12 }),
        fc.option(fc.constant("https://t.test/o/p?x=1&y=2"), { nil: undefined }),
        fc.boolean(),
        async (source, sliceLength, failAt, pixelUrl, trackClicks) => {
          const whole = await outcome(
            (options) => rewriteTrackedHtml(source, options),
            failAt,
            pixelUrl,
            trackClicks,
          );
          const sliced = await outcome(
            (options) => rewriteTrackedHtmlInSlices(source, options, sliceLength),
            failAt,
            pixelUrl,
            trackClicks,
          );
          expect(sliced).toEqual(whole);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("gives the event loop back while it reads 5 MiB of links: other callbacks run between its slices", async () => {
    const unit = '<a href="#top" data-mailpulse-notrack>x</a>';
    const source = unit.repeat(Math.floor((5 * 1024 * 1024) / unit.length));
    let done = false;
    let turnsMeanwhile = 0;
    const countTurns = () => {
      if (done) return;
      turnsMeanwhile += 1;
      setImmediate(countTurns);
    };
    setImmediate(countTurns);
    const result = await rewriteTrackedHtmlInSlices(source, {
      trackClicks: true,
      trackingUrlFor: () => "https://t.test/c",
    });
    done = true;
    expect(result.html).toBe('<a href="#top">x</a>'.repeat(Math.floor((5 * 1024 * 1024) / unit.length)));
    // 80 slices of 64 KiB, then the copy of 120,000 splices in batches of 8,192: one turn each.
    expect(turnsMeanwhile).toBeGreaterThanOrEqual(80);
  });

  it("copies more splices than one turn holds in order (the batched copy)", async () => {
    // 20,000 notrack markers and 20,000 links: several batches of splices, several slices.
    const unit =
      '<a href="https://a.example/m" data-mailpulse-notrack>m</a><a href="https://a.example/l">l</a>';
    const source = `<body>${unit.repeat(20_000)}</body><a href="https://a.example/after">`;
    const options: RewriteTrackedHtmlOptions = {
      trackClicks: true,
      pixelUrl: "https://t.test/o/p",
      trackingUrlFor: (_url, index) => `https://t.test/c/${index}`,
    };
    const sliced = await rewriteTrackedHtmlInSlices(source, options, 4096);
    expect(sliced).toEqual(rewriteTrackedHtml(source, options));
    // The link after `</body>` is the 20,001st; the pixel goes before `</body>`, ahead of it.
    expect(sliced.links).toHaveLength(20_001);
    expect(sliced.html).not.toContain("data-mailpulse-notrack");
    expect(sliced.html).toMatch(/padding:0" \/><\/body><a href="https:\/\/t\.test\/c\/20000">$/);
  });
});
