/**
 * `npm run bench`: every benchmark of issue 7, one after the other, after one banner (machine,
 * load average, pinning). Each case measures its baseline in the same run and prints ratios; the
 * figures go into bench/RESULTS.md by hand, with the command. Every case also has a script of its
 * own (`npm run bench:tracking`, `bench:html`, `bench:send`, `bench:rss`, `bench:crash`,
 * `bench:stats`), and the environment knobs in bench/lib/settings.ts shorten or lengthen a run.
 */
import { performance } from "node:perf_hooks";
import { printMachine } from "./lib/machine.js";

const started = performance.now();
const section = (title: string) => {
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  console.log(`\n== ${title} (at ${minutes} min)`);
};

printMachine();

section("1-2. Tracking hits through the adapters vs the bare framework");
await (await import("./tracking.bench.js")).run();

section("3. HTML tracking transform vs a bare tokenizer pass and vs linkedom");
const html = await import("./html-rewrite.bench.js");
html.printTable(html.run());

section("4. POST /api/send vs a bare JSON route");
await (await import("./send.bench.js")).run();

section("5. RSS under a million pixel hits");
await (await import("./rss.bench.js")).run();

section("6. kill -9 under pixel load");
await (await import("./crash.bench.js")).run();

section("Statistics endpoints at 100k and 1M events");
await (await import("./stats.bench.js")).run();

section("done");
