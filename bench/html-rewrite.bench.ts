/**
 * The HTML tracking transform against two baselines over the same documents (issue 7, case 3):
 *
 * - a bare pass of htmlparser2's tokenizer (html/tokenizer-pass.ts): what finding the links
 *   costs at the least, since `rewriteTrackedHtml` runs that tokenizer and splices the original
 *   string at the offsets it reports (target: the rewrite at most 2x this);
 * - a linkedom parse + serialise: what a DOM-based rewrite would pay at the least (and it would
 *   not give the email back byte for byte).
 *
 * Documents: core's newsletter fixture (19 KB, hand-written, every trap a real template has) and
 * generated newsletters of ~20 KB, ~100 KB and ~500 KB (html/newsletter.ts: ghost tables and VML
 * buttons in MSO conditional comments, nested tables, many links). The tokenizer pass, the output
 * assembly and the rewrite are called in turn, one call of each per step, MEASURED_RUNS steps after
 * WARMUP_RUNS, so that a slow moment of the machine falls on all three alike; linkedom, whose
 * garbage would land in the others' calls, is measured after them on its own. Each figure is the
 * median of its calls; BENCH_REPS rounds (default 3), and the medians of the rounds are reported,
 * with the median of each step's own rewrite/tokenizer ratio ("paired").
 *
 * Run: npm run bench:html
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { parseHTML } from "linkedom";
import { rewriteTrackedHtml } from "../packages/core/src/html/rewrite-links.js";
import { generateNewsletter } from "./html/newsletter.js";
import { tokenizerPass } from "./html/tokenizer-pass.js";
import { isMain } from "./lib/is-main.js";
import { median } from "./lib/median.js";
import { readBenchSettings } from "./lib/settings.js";

/** One document: median milliseconds of each task, and the rewrite's ratios to the baselines. */
export interface HtmlRewriteBenchRow {
  name: string;
  sizeKb: number;
  /** Links the rewrite replaced by tracking URLs. */
  trackedLinks: number;
  /** `<!--[if ...]>` conditional comments in the document. */
  conditionalComments: number;
  tokenizerMs: number;
  /**
   * Joining a string the size of the rewrite's output from as many pieces as the rewrite joins
   * (two per link, plus one): the floor of any rewrite that returns a new string. Strings over
   * 128 KB go to V8's large-object space, fresh pages each time, whose page faults are slow on
   * some machines (bench/RESULTS.md, "HTML").
   */
  assemblyMs: number;
  rewriteMs: number;
  linkedomMs: number;
  /** rewriteMs / tokenizerMs (target: at most 2). */
  rewriteVsTokenizer: number;
  /** The median over all steps of the rewrite's time over the tokenizer's in the same step. */
  rewriteVsTokenizerPaired: number;
  /** rewriteMs / linkedomMs. */
  rewriteVsLinkedom: number;
}

const WARMUP_RUNS = 10;
const MEASURED_RUNS = 40;

/**
 * Wall times of `tasks` called in turn, one call of each per step: WARMUP_RUNS steps unmeasured,
 * then MEASURED_RUNS steps; one array of milliseconds per task, in step order.
 */
function measureInTurn(tasks: ReadonlyArray<() => unknown>): number[][] {
  let sink = 0;
  const samples = tasks.map((): number[] => []);
  for (let step = 0; step < WARMUP_RUNS + MEASURED_RUNS; step += 1) {
    tasks.forEach((task, index) => {
      const started = performance.now();
      const result = task();
      if (step >= WARMUP_RUNS) samples[index]!.push(performance.now() - started);
      sink += result === undefined ? 0 : 1;
    });
  }
  // Keeps the results observable so the work cannot be optimised away.
  if (sink < 0) console.log(sink);
  return samples;
}

function rewrite(html: string) {
  return rewriteTrackedHtml(html, {
    trackClicks: true,
    trackingUrlFor: (_url, index) => `https://t.mailpulse.test/api/t/c/${index}-0123456789abcdefghij`,
    pixelUrl: "https://t.mailpulse.test/api/t/o/0123456789abcdefghijkl",
  });
}

function documents(): Array<{ name: string; html: string }> {
  return [
    {
      name: "newsletter.html (core fixture)",
      html: readFileSync(
        new URL("../packages/core/test/fixtures/html/newsletter.html", import.meta.url),
        "utf8",
      ),
    },
    { name: "generated newsletter ~20 KB", html: generateNewsletter(20 * 1024) },
    { name: "generated newsletter ~100 KB", html: generateNewsletter(100 * 1024) },
    { name: "generated newsletter ~500 KB", html: generateNewsletter(500 * 1024) },
  ];
}

/** Measures every document; prints nothing. `rounds` defaults to BENCH_REPS. */
export function run(rounds = readBenchSettings().repetitions): HtmlRewriteBenchRow[] {
  const all = documents();
  // Every task on every document first: otherwise the first document measured pays for the JIT
  // compiling the rewrite (a run measured the 19 KB fixture at 4.0x, against 1.7x warm).
  for (let pass = 0; pass < WARMUP_RUNS; pass++) {
    for (const { html } of all) {
      tokenizerPass(html);
      rewrite(html);
      parseHTML(html).document.toString();
    }
  }
  return all.map(({ name, html }) => {
    const tokenizer: number[] = [];
    const assembly: number[] = [];
    const pieces = piecesOf(rewrite(html).html, 2 * rewrite(html).links.length + 1);
    const rewriting: number[] = [];
    const linkedom: number[] = [];
    const pairedRatios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const [tokenizerCalls, assemblyCalls, rewriteCalls] = measureInTurn([
        () => tokenizerPass(html),
        () => pieces.join(""),
        () => rewrite(html).html,
      ]);
      tokenizer.push(median(tokenizerCalls!));
      assembly.push(median(assemblyCalls!));
      rewriting.push(median(rewriteCalls!));
      pairedRatios.push(...rewriteCalls!.map((ms, step) => ms / tokenizerCalls![step]!));
      linkedom.push(median(measureInTurn([() => parseHTML(html).document.toString()])[0]!));
    }
    const [tokenizerMs, assemblyMs] = [median(tokenizer), median(assembly)];
    const [rewriteMs, linkedomMs] = [median(rewriting), median(linkedom)];
    return {
      name,
      sizeKb: Math.round(html.length / 1024),
      trackedLinks: rewrite(html).links.length,
      conditionalComments: html.match(/<!--\[if /g)?.length ?? 0,
      tokenizerMs,
      assemblyMs,
      rewriteMs,
      linkedomMs,
      rewriteVsTokenizer: rewriteMs / tokenizerMs,
      rewriteVsTokenizerPaired: median(pairedRatios),
      rewriteVsLinkedom: rewriteMs / linkedomMs,
    };
  });
}

/** `text` cut into `count` slices of about equal length (the last takes the rest). */
function piecesOf(text: string, count: number): string[] {
  const size = Math.max(1, Math.floor(text.length / count));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

/** Prints `rows` as the table RESULTS.md quotes. */
export function printTable(rows: HtmlRewriteBenchRow[], log: (line: string) => void = console.log): void {
  log(
    `Median ms of ${MEASURED_RUNS} calls, median of the rounds; ratio = rewrite / baseline; paired = median of each step's rewrite / tokenizer`,
  );
  console.table(
    rows.map((row) => ({
      document: `${row.name} (${row.sizeKb} KB)`,
      links: row.trackedLinks,
      "[if] comments": row.conditionalComments,
      "tokenizer ms": row.tokenizerMs.toFixed(3),
      "assembly ms": row.assemblyMs.toFixed(3),
      "rewrite ms": row.rewriteMs.toFixed(3),
      "linkedom ms": row.linkedomMs.toFixed(3),
      "rewrite/tokenizer": `${row.rewriteVsTokenizer.toFixed(2)}x`,
      paired: `${row.rewriteVsTokenizerPaired.toFixed(2)}x`,
      "rewrite/linkedom": `${row.rewriteVsLinkedom.toFixed(2)}x`,
    })),
  );
}

if (isMain(import.meta.url)) {
  printTable(run());
}
