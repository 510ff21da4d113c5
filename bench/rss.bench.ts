/**
 * Memory under a million pixel hits (issue 7, case 5): the resident set must stay flat once the
 * lookup caches are full, whatever the number of hits. rss/hit-loop.ts does the work in a child
 * process of its own (pinned to the server core, with `--expose-gc`) so the figures are that
 * process's alone; this prints its samples and checks every answered known hit was recorded.
 *
 * Knobs: BENCH_RSS_HITS (1,000,000), BENCH_RSS_EMAILS (10,000), BENCH_RSS_CACHE (2,000),
 * BENCH_RSS_CONCURRENCY (200).
 *
 * Run: npm run bench:rss
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { count, megabytes } from "./lib/format.js";
import { isMain } from "./lib/is-main.js";
import { printMachine } from "./lib/machine.js";
import { nodeArguments } from "./lib/node-child.js";
import { pinned, serverCore } from "./lib/pin.js";
import { createTempFolder } from "./lib/temp-folder.js";
import type { MemorySample } from "./rss/memory-sample.js";
import { readRssSettings } from "./rss/rss-settings.js";

/** The samples of the run and its outcome. */
export interface RssResult {
  samples: MemorySample[];
  /** RSS growth from the second sample (caches full by then) to the last, in bytes. */
  growthAfterWarmBytes: number;
  knownHits: number;
  recorded: number;
  failures: number;
}

interface Done {
  done: true;
  knownHits: number;
  recorded: number;
  failures: number;
  seconds: number;
}

/** Runs the hit loop; logs each sample and the summary through `log`. */
export async function run(log: (line: string) => void = console.log): Promise<RssResult> {
  const settings = readRssSettings();
  log(
    `${count(settings.hits)} pixel hits in-process through mailpulse.handler, ${settings.concurrency} in flight, ` +
      `over ${count(settings.emails)} emails (80% on the newest ${count(settings.cacheSize / 2)}) with ` +
      `tracking.cacheSize ${count(settings.cacheSize)}, every tenth hit on a new unknown id; SQLite file`,
  );
  const folder = createTempFolder();
  try {
    const entry = new URL("./rss/hit-loop.ts", import.meta.url);
    const [command, args] = pinned(serverCore, process.execPath, [
      "--expose-gc",
      ...nodeArguments(entry, folder.file("rss.db")),
    ]);
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
    const samples: MemorySample[] = [];
    let done: Done | undefined;
    for await (const line of createInterface({ input: child.stdout! })) {
      if (!line.startsWith("{")) {
        // Anything else the child prints (a logged error) is worth seeing.
        log(`  [hit loop] ${line}`);
        continue;
      }
      const message = JSON.parse(line) as MemorySample | Done;
      if ("done" in message) {
        done = message;
        continue;
      }
      samples.push(message);
      log(
        `  ${count(message.hits).padStart(9)} hits  ${message.seconds.toFixed(1).padStart(6)} s  ` +
          `${count(message.rate).padStart(6)} hits/s  rss ${megabytes(message.rssBytes).padStart(9)}  ` +
          `heap ${megabytes(message.heapUsedBytes).padStart(8)}  external ${megabytes(message.externalBytes)}`,
      );
    }
    if (!done) throw new Error("the RSS hit loop did not finish");
    const warm = samples[1] ?? samples[0]!;
    const last = samples[samples.length - 1]!;
    const result: RssResult = {
      samples,
      growthAfterWarmBytes: last.rssBytes - warm.rssBytes,
      knownHits: done.knownHits,
      recorded: done.recorded,
      failures: done.failures,
    };
    const verdict = done.recorded === done.knownHits && done.failures === 0 ? "ok" : "MISMATCH";
    log(
      `RSS before the first hit ${megabytes(samples[0]!.rssBytes)}, after ${count(warm.hits)} hits ` +
        `${megabytes(warm.rssBytes)}, after ${count(last.hits)} hits ${megabytes(last.rssBytes)} ` +
        `(${result.growthAfterWarmBytes >= 0 ? "+" : ""}${megabytes(result.growthAfterWarmBytes)} since the caches filled)`,
    );
    log(
      `recorded opens ${count(done.recorded)} for ${count(done.knownHits)} answered known-id hits, ` +
        `${count(done.failures)} non-200: ${verdict}; ${done.seconds.toFixed(0)} s`,
    );
    return result;
  } finally {
    folder.remove();
  }
}

if (isMain(import.meta.url)) {
  printMachine();
  await run();
}
