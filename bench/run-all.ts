/**
 * `npm run bench`: every benchmark, one after the other. Each reports ratios against a baseline
 * measured in the same run; figures go into bench/RESULTS.md by hand, with the command.
 */
import { run as runHtmlRewrite } from "./html-rewrite.bench.js";

console.log("== HTML tracking transform vs a linkedom parse + serialise (same run)");
console.table(runHtmlRewrite());

console.log("== Statistics endpoints at 100k and 1M events");
const stats = await import("./stats.bench.js");
await stats.run();
