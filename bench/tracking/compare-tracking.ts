/**
 * One tracking comparison at one connection count: the bare route and MailPulse, each started
 * fresh for every run (cold caches, as after a deploy), warmed up, loaded, stopped; MailPulse's
 * runs end with the hit check.
 */
import { count, duration, ratio } from "../lib/format.js";
import { type Contender, interleave, medianPairedRatio, requestRateSpread } from "../lib/interleave.js";
import { currentLoad } from "../lib/machine.js";
import type { BenchSettings } from "../lib/settings.js";
import { describeResult } from "../load/describe-result.js";
import type { LoadGenerator, LoadResult, LoadSpec } from "../load/load-spec.js";
import { describeServer, type ServerConfig } from "../server/config.js";
import { answeredIn, measuredRun } from "../server/measured-run.js";
import type { BenchDatabase } from "./bench-database.js";
import type { TrackingCase } from "./cases.js";
import { checkHits, describeCheck, type HitCheck } from "./hit-check.js";
import { countRecorded } from "./recorded.js";
import { clickUserAgents, pixelUserAgents } from "./user-agents.js";

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
  /** The median of each round's MailPulse req/s over the same round's baseline (see medianPairedRatio). */
  pairedRatio: number;
  /** `ok` when every run recorded every answered hit; otherwise the runs' problems. */
  recorded: string;
  /** With `noWriteCeiling`: the paired ratio of MailPulse with its tracking write skipped. */
  noWriteRatio?: number;
}

/** What a comparison needs from the suite. */
export interface TrackingContext {
  settings: BenchSettings;
  load: LoadGenerator;
  database: BenchDatabase;
  log: (line: string) => void;
}

/** One run of `config`; for MailPulse, followed by the check of the recorded hits. */
async function runServer(
  config: ServerConfig,
  spec: Omit<LoadSpec, "origin">,
  context: TrackingContext,
  type: "open" | "click",
): Promise<TrackingRun> {
  // Without a write there is nothing to check.
  const storage = config.skipTrackingWrites ? undefined : config.storage;
  const before = storage ? await countRecorded(storage, type) : undefined;
  const run = await measuredRun(config, spec, context.settings, context.load);
  if (!storage || !before) return run.measured;
  const after = await countRecorded(storage, type);
  return { ...run.measured, check: checkHits(before, after, answeredIn(run), run.maxInFlight) };
}

/**
 * A baseline spread (fastest run over slowest) past which the comparison says the machine was
 * unsteady. Bare routes on the project's VMs varied by up to a quarter between runs
 * (bench/RESULTS.md); past 30% one side's medians may pair a fast phase with a slow one.
 */
const unsteadySpread = 1.3;

/** Runs `trackingCase` at `connections`: interleaved repetitions, medians, ratio. */
export async function compareTracking(
  trackingCase: TrackingCase,
  name: string,
  connections: number,
  context: TrackingContext,
): Promise<TrackingRow> {
  const { settings, database, log } = context;
  const paths = trackingCase.route === "pixel" ? database.seeded.pixelPaths : database.seeded.clickPaths;
  const mix = trackingCase.route === "pixel" ? pixelUserAgents : clickUserAgents;
  const userAgents = settings.userAgents ? mix : undefined;
  const spec = { paths, userAgents, connections, durationSeconds: settings.durationSeconds };
  const type = trackingCase.route === "pixel" ? "open" : "click";
  const bare: ServerConfig = { framework: trackingCase.framework, variant: "bare" };
  const baseline: Contender<TrackingRun> = {
    name: describeServer(bare),
    run: () => runServer(bare, spec, context, type),
  };
  const mailpulseContender = (skipTrackingWrites: boolean): Contender<TrackingRun> => ({
    name: describeServer({ ...bare, variant: "mailpulse", skipTrackingWrites }),
    run: () =>
      runServer(
        {
          framework: trackingCase.framework,
          variant: "mailpulse",
          storage: database.forRun(),
          skipTrackingWrites,
        },
        spec,
        context,
        type,
      ),
  });
  const candidate = mailpulseContender(false);
  const contenders = [baseline, candidate];
  if (trackingCase.noWriteCeiling) contenders.push(mailpulseContender(true));

  log(`-- ${name}, ${connections} connections${currentLoad()}`);
  const [baselineResult, candidateResult, noWriteResult] = await interleave(
    contenders,
    settings.repetitions,
    (contender, repetition, run) => {
      const check = run.check ? `; ${describeCheck(run.check)}` : "";
      log(`   ${repetition}. ${contender}: ${describeResult(run)}${check}`);
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
    pairedRatio: medianPairedRatio(baselineResult!, candidateResult!),
    recorded: problems.join("; ") || "ok",
    noWriteRatio: noWriteResult ? medianPairedRatio(baselineResult!, noWriteResult) : undefined,
  };
  log(
    `   median: ${row.baseline} ${count(row.baselineRequestsPerSecond)} req/s (p99 ${duration(row.baselineP99Ms)}), ` +
      `MailPulse ${count(row.mailpulseRequestsPerSecond)} req/s (p99 ${duration(row.mailpulseP99Ms)}), ` +
      `ratio ${ratio(row.ratio)} (median of each round's ratio: ${ratio(row.pairedRatio)})` +
      (noWriteResult
        ? `; with the write skipped ${count(noWriteResult.medianRequestsPerSecond)} req/s, ` +
          `paired ratio ${ratio(row.noWriteRatio!)}`
        : ""),
  );
  const spread = requestRateSpread(baselineResult!);
  if (spread > unsteadySpread) {
    log(
      `   note: the ${row.baseline} runs spread ${ratio(spread)} (slowest to fastest): the machine's ` +
        "speed changed during this comparison; the paired ratio is the one to read, and a rerun on a steadier machine the better answer",
    );
  }
  return row;
}
