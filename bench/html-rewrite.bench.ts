/**
 * Cost of the HTML tracking transform against a DOM round-trip of the same document.
 *
 * `rewriteTrackedHtml` splices the original string at offsets found by htmlparser2's tokenizer;
 * the baseline is what a DOM-based rewrite would pay at minimum, linkedom's parse + serialize
 * (linkedom is itself built on htmlparser2), measured in the same process and run.
 *
 * Run: npx tsx --conditions=source bench/html-rewrite.bench.ts
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { parseHTML } from "linkedom";
import { rewriteTrackedHtml } from "../packages/core/src/html/rewrite-links.js";
import { generateLargeNewsletter } from "../packages/core/test/fixtures/html/generate-large-newsletter.js";

/** One measured document: medians in milliseconds, `ratio` = medianMs / baselineMs. */
export interface HtmlRewriteBenchRow {
  name: string;
  medianMs: number;
  baselineMs: number;
  ratio: number;
}

const WARMUP_RUNS = 20;
const MEASURED_RUNS = 60;

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Median wall time of `task` over MEASURED_RUNS after WARMUP_RUNS unmeasured calls. */
function measure(task: () => unknown): number {
  let sink = 0;
  for (let i = 0; i < WARMUP_RUNS; i += 1) sink += String(task()).length;
  const samples: number[] = [];
  for (let i = 0; i < MEASURED_RUNS; i += 1) {
    const started = performance.now();
    const result = task();
    samples.push(performance.now() - started);
    sink += result === undefined ? 0 : 1;
  }
  // Keeps the results observable so the work cannot be optimised away.
  if (sink < 0) console.log(sink);
  return median(samples);
}

function rewrite(html: string) {
  return rewriteTrackedHtml(html, {
    trackClicks: true,
    trackingUrlFor: (_url, index) => `https://t.mailpulse.test/c/${index}?sig=0123456789abcdef`,
    pixelUrl: "https://t.mailpulse.test/o/0123456789abcdef",
  });
}

/** Measures both documents; prints nothing. */
export function run(): HtmlRewriteBenchRow[] {
  const documents = [
    {
      name: "newsletter.html",
      html: readFileSync(
        new URL("../packages/core/test/fixtures/html/newsletter.html", import.meta.url),
        "utf8",
      ),
    },
    { name: "generated catalogue", html: generateLargeNewsletter() },
  ];
  return documents.map(({ name, html }) => {
    const medianMs = measure(() => rewrite(html).html);
    const baselineMs = measure(() => parseHTML(html).document.toString());
    const sizeKb = Math.round(html.length / 1024);
    return { name: `${name} (${sizeKb} KB)`, medianMs, baselineMs, ratio: medianMs / baselineMs };
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = run();
  console.log(`rewriteTrackedHtml vs linkedom parse+serialize, median of ${MEASURED_RUNS} runs`);
  console.table(
    rows.map((row) => ({
      document: row.name,
      "rewrite ms": row.medianMs.toFixed(3),
      "linkedom ms": row.baselineMs.toFixed(3),
      ratio: row.ratio.toFixed(2),
    })),
  );
}
