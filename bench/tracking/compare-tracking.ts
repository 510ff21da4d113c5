/**
 * One tracking comparison at one connection count: the bare route and MailPulse, each started
 * fresh for every run (cold caches, as after a deploy), warmed up, loaded, stopped; MailPulse's
 * runs end with the hit check.
 */
import { count, duration, ratio } from "../lib/format.js";
import { type Contender, interleave } from "../lib/interleave.js";
import type { BenchSettings } from "../lib/settings.js";
import type { LoadGenerator, LoadResult, LoadSpec } from "../load/load-spec.js";
import { describeServer, type ServerConfig } from "../server/config.js";
import { startServer } from "../server/start-server.js";
import type { BenchDatabase } from "./bench-database.js";
import type { TrackingCase } from "./cases.js";
import { checkHits, describeCheck, type HitCheck } from "./hit-check.js";
import { countRecorded } from "./recorded.js";

/** A run's load result, with the hit check for MailPulse runs. */
export type TrackingRun = LoadResult & { check?: HitCheck };

/** The summary row of one comparison. */
export interface TrackingRow {
  case: string;
  connections: number;
  baseline: string;
  baselineRequestsPerSecond: number;
  baselineP99Ms: number;
  mailpulseRequestsPerSecond: number;
  mailpulseP99Ms: number;
  /** MailPulse's median req/s over the baseline's. */
  ratio: number;
  /** `ok` when every run recorded every answered hit; otherwise the runs' problems. */
  recorded: string;
}

/** What a comparison needs from the suite. */
export interface TrackingContext {
  settings: BenchSettings;
  load: LoadGenerator;
  database: BenchDatabase;
  log: (line: string) => void;
}

/** Starts a server, warms it up, measures, stops it; for MailPulse, checks the recorded hits. */
async function measureServer(
  config: ServerConfig,
  spec: LoadSpec,
  context: TrackingContext,
  type: "open" | "click",
): Promise<TrackingRun> {
  const { settings, load } = context;
  const storage = config.storage;
  const before = storage ? await countRecorded(storage, type) : undefined;
  const server = await startServer(config);
  let warmup: LoadResult | undefined;
  let measured: LoadResult;
  try {
    const origin = server.origin;
    if (settings.warmupSeconds > 0) {
      warmup = await load.run({ ...spec, origin, durationSeconds: settings.warmupSeconds });
    }
    measured = await load.run({ ...spec, origin });
  } catch (error) {
    await server.kill();
    throw error;
  }
  await server.stop();
  if (!storage || !before) return measured;
  const answered = measured.answered + (warmup?.answered ?? 0);
  const loadRuns = warmup ? 2 : 1;
  const check = checkHits(before, await countRecorded(storage, type), answered, spec.connections * loadRuns);
  return { ...measured, check };
}

/** Runs `trackingCase` at `connections`: interleaved repetitions, medians, ratio. */
export async function compareTracking(
  trackingCase: TrackingCase,
  name: string,
  connections: number,
  context: TrackingContext,
): Promise<TrackingRow> {
  const { settings, database, log } = context;
  const paths = trackingCase.route === "pixel" ? database.seeded.pixelPaths : database.seeded.clickPaths;
  const spec: LoadSpec = { origin: "", paths, connections, durationSeconds: settings.durationSeconds };
  const type = trackingCase.route === "pixel" ? "open" : "click";
  const bare: ServerConfig = { framework: trackingCase.framework, variant: "bare" };
  const baseline: Contender<TrackingRun> = {
    name: describeServer(bare),
    run: () => measureServer(bare, spec, context, type),
  };
  const candidate: Contender<TrackingRun> = {
    name: describeServer({ ...bare, variant: "mailpulse" }),
    run: () =>
      measureServer(
        { framework: trackingCase.framework, variant: "mailpulse", storage: database.forRun() },
        spec,
        context,
        type,
      ),
  };

  log(`-- ${name}, ${connections} connections`);
  const [baselineResult, candidateResult] = await interleave(
    [baseline, candidate],
    settings.repetitions,
    (contender, repetition, run) => {
      const status =
        run.failedStatus + run.socketErrors > 0
          ? `, ${run.failedStatus} bad statuses, ${run.socketErrors} socket errors`
          : "";
      const check = run.check ? `; ${describeCheck(run.check)}` : "";
      log(
        `   ${repetition}. ${contender}: ${count(run.requestsPerSecond)} req/s, p99 ${duration(run.p99Ms)}${status}${check}`,
      );
    },
  );
  const problems = candidateResult!.runs.flatMap((run) =>
    run.check && run.check.verdict !== "ok" ? [run.check.verdict] : [],
  );
  const row: TrackingRow = {
    case: name,
    connections,
    baseline: baselineResult!.name,
    baselineRequestsPerSecond: baselineResult!.medianRequestsPerSecond,
    baselineP99Ms: baselineResult!.medianP99Ms,
    mailpulseRequestsPerSecond: candidateResult!.medianRequestsPerSecond,
    mailpulseP99Ms: candidateResult!.medianP99Ms,
    ratio: candidateResult!.medianRequestsPerSecond / baselineResult!.medianRequestsPerSecond,
    recorded: problems.join("; ") || "ok",
  };
  log(
    `   median: ${row.baseline} ${count(row.baselineRequestsPerSecond)} req/s (p99 ${duration(row.baselineP99Ms)}), ` +
      `MailPulse ${count(row.mailpulseRequestsPerSecond)} req/s (p99 ${duration(row.mailpulseP99Ms)}), ` +
      `ratio ${ratio(row.ratio)}`,
  );
  return row;
}
