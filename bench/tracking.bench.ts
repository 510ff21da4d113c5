/**
 * Tracking hits through the adapters against the bare framework (issue 7, cases 1 and 2).
 *
 * Seeds BENCH_EMAILS sent emails (default 5,000) through `emails.send`, then for every case of
 * tracking/cases.ts runs the bare route and MailPulse interleaved (BENCH_REPS, default 3), each
 * run a fresh server process on the server core, BENCH_WARMUP s of unmeasured load, then
 * BENCH_DURATION s measured (defaults 3 and 10) from wrk (or autocannon) on the load core, cycling
 * through the emails' distinct tracking ids. After each MailPulse run the server is stopped
 * (draining its queue) and the hits recorded in the database are compared with the answered ones.
 * PostgreSQL cases run in a schema of their own in DATABASE_URL's database, skipped without it.
 * Cases marked `noWriteCeiling` also run MailPulse with its tracking write skipped, interleaved:
 * the ceiling of everything but the database, the measured answer to "how much is the write?".
 * BENCH_ONLY=<words of a case name> runs only the matching cases, BENCH_CONNECTIONS=10,50 overrides
 * the connection counts, BENCH_LOAD=autocannon forces the fallback load generator. Every hit
 * carries a mail client's or browser's User-Agent (tracking/user-agents.ts); BENCH_USER_AGENTS=none
 * sends none, as earlier passes did.
 *
 * Run: npm run bench:tracking
 */
import { count, duration, ratio } from "./lib/format.js";
import { isMain } from "./lib/is-main.js";
import { printMachine } from "./lib/machine.js";
import { readBenchSettings } from "./lib/settings.js";
import { createTempFolder } from "./lib/temp-folder.js";
import { chooseLoadGenerator } from "./load/load-generator.js";
import { type BenchDatabase, seedPostgresDatabase, seedSqliteDatabase } from "./tracking/bench-database.js";
import { describeCase, isSelected, trackingCases } from "./tracking/cases.js";
import { compareTracking, type TrackingRow } from "./tracking/compare-tracking.js";

/** Runs every tracking case; logs progress and the summary table through `log`. */
export async function run(log: (line: string) => void = console.log): Promise<TrackingRow[]> {
  const settings = readBenchSettings();
  const selected = trackingCases.filter((trackingCase) =>
    isSelected(describeCase(trackingCase), settings.only),
  );
  if (selected.length === 0) {
    // An empty table would read as a run that measured nothing; say why, and fail the command.
    const names = trackingCases.map((trackingCase) => `  ${describeCase(trackingCase)}`).join("\n");
    console.error(`BENCH_ONLY=${settings.only} selects no tracking case. The cases are:\n${names}`);
    process.exitCode = 1;
    return [];
  }
  const folder = createTempFolder();
  const load = chooseLoadGenerator(settings, folder);
  log(
    `load generator: ${load.name}; ${settings.repetitions} interleaved repetitions of ` +
      `${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured; ` +
      `${count(settings.emails)} sent emails' distinct ids, ` +
      (settings.userAgents ? "each with a mail client's or browser's User-Agent" : "no User-Agent"),
  );
  const databases = new Map<"sqlite" | "postgres", BenchDatabase>();
  const rows: TrackingRow[] = [];
  try {
    for (const trackingCase of selected) {
      const name = describeCase(trackingCase);
      if (trackingCase.storage === "postgres" && !settings.databaseUrl) {
        log(`-- ${name}: skipped, DATABASE_URL is not set`);
        continue;
      }
      let database = databases.get(trackingCase.storage);
      if (!database) {
        const started = performance.now();
        database =
          trackingCase.storage === "sqlite"
            ? await seedSqliteDatabase(folder, settings.emails)
            : await seedPostgresDatabase(settings.databaseUrl!, settings.emails);
        databases.set(trackingCase.storage, database);
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        log(`seeded ${count(settings.emails)} sent emails on ${database.label} in ${seconds} s`);
      }
      for (const connections of settings.connections ?? trackingCase.connections) {
        rows.push(await compareTracking(trackingCase, name, connections, { settings, load, database, log }));
      }
    }
  } finally {
    for (const database of databases.values()) await database.dispose();
    folder.remove();
  }
  log(
    `\nTracking hits, medians of ${settings.repetitions} runs (${load.name}); ratio = MailPulse / bare ` +
      "(of the medians; paired: the median of each round's own ratio; no-write paired: the same " +
      "for MailPulse with its tracking write skipped, where the case runs it)",
  );
  console.table(
    rows.map((row) => ({
      case: row.case,
      conns: row.connections,
      baseline: row.baseline,
      "baseline req/s": count(row.baselineRequestsPerSecond),
      "baseline p99": duration(row.baselineP99Ms),
      "MailPulse req/s": count(row.mailpulseRequestsPerSecond),
      "MailPulse p99": duration(row.mailpulseP99Ms),
      ratio: ratio(row.ratio),
      paired: ratio(row.pairedRatio),
      "recorded = answered": row.recorded,
      "no-write paired": row.noWriteRatio === undefined ? "" : ratio(row.noWriteRatio),
    })),
  );
  return rows;
}

if (isMain(import.meta.url)) {
  printMachine();
  await run();
}
