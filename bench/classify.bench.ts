/**
 * How well the classifier tells machines from people, on the labelled set of
 * packages/core/test/measurement/labelled-hits.ts: the share of machine hits it flags (recall),
 * the share of human hits it flags (false alarms; image-proxy opens count as human), precision,
 * and how many hits get exactly their labelled source. Measured twice: at arrival (each hit
 * judged on the message's earlier hits, what the tracking endpoint stores first) and after
 * revision (every hit judged on the whole message, what re-classification stores). CPU-light.
 *
 * The goal (issue 10): at least 95% of machine hits flagged, at most 2% of human hits flagged.
 *
 * Then the same classifier on public user-agent lists nobody on this project labelled
 * (bench/classify/public-corpora.ts): top-user-agents' browsers, expected human, and
 * crawler-user-agents' instances, expected machine, with the packages' versions and the user
 * agents each gets wrong.
 *
 * Run: npm run bench:classify
 */
import { classifyHistory, classifyHit, type EarlierHit, type HitVerdict } from "@mailpulse/core";
import { labelledMessages } from "../packages/core/test/measurement/labelled-hits.js";
import { printPublicCorpora } from "./classify/public-corpora-report.js";
import { isMain } from "./lib/is-main.js";

interface Tally {
  machines: number;
  machinesFlagged: number;
  humans: number;
  humansFlagged: number;
  exactSource: number;
  hits: number;
}

function emptyTally(): Tally {
  return { machines: 0, machinesFlagged: 0, humans: 0, humansFlagged: 0, exactSource: 0, hits: 0 };
}

function atArrival(hits: Parameters<typeof classifyHistory>[0]): HitVerdict[] {
  const order = hits.map((hit, index) => ({ hit, index })).sort((a, b) => a.hit.at - b.hit.at);
  const earlier: EarlierHit[] = [];
  const verdicts: HitVerdict[] = new Array(hits.length);
  for (const { hit, index } of order) {
    const verdict = classifyHit(hit, earlier);
    earlier.push({ ...hit, verdict });
    verdicts[index] = verdict;
  }
  return verdicts;
}

/** Tallies of the whole set and of each kind, for one way of judging. */
export function measure(judge: (hits: Parameters<typeof classifyHistory>[0]) => HitVerdict[]) {
  const total = emptyTally();
  const byKind = new Map<string, Tally>();
  for (const message of labelledMessages()) {
    const kind = byKind.get(message.kind) ?? emptyTally();
    byKind.set(message.kind, kind);
    const verdicts = judge(message.hits);
    message.hits.forEach((hit, index) => {
      const verdict = verdicts[index]!;
      const isMachine = hit.label !== "human" && hit.label !== "image_proxy";
      for (const tally of [total, kind]) {
        tally.hits++;
        if (verdict.source === hit.label) tally.exactSource++;
        if (isMachine) {
          tally.machines++;
          if (verdict.machine) tally.machinesFlagged++;
        } else {
          tally.humans++;
          if (verdict.machine) tally.humansFlagged++;
        }
      }
    });
  }
  return { total, byKind };
}

const percent = (part: number, whole: number) =>
  whole === 0 ? "-" : `${((part / whole) * 100).toFixed(1)}%`;

function summary(name: string, tally: Tally): string {
  const precision = percent(tally.machinesFlagged, tally.machinesFlagged + tally.humansFlagged);
  return [
    name.padEnd(16),
    `machine hits flagged ${percent(tally.machinesFlagged, tally.machines)} (${tally.machinesFlagged}/${tally.machines})`,
    `human hits flagged ${percent(tally.humansFlagged, tally.humans)} (${tally.humansFlagged}/${tally.humans})`,
    `precision ${precision}`,
    `exact source ${percent(tally.exactSource, tally.hits)}`,
  ].join(" | ");
}

/** Prints both measurements and the per-kind table after revision, then the public corpora. */
export function run(): void {
  const arrival = measure(atArrival);
  const revised = measure((hits) => classifyHistory(hits));
  console.log(
    `labelled set: ${revised.total.hits} hits (${revised.total.machines} machine, ${revised.total.humans} human)`,
  );
  console.log(summary("at arrival", arrival.total));
  console.log(summary("after revision", revised.total));
  console.log("\nper kind, after revision (machine flagged / human flagged):");
  for (const [kind, tally] of revised.byKind) {
    console.log(
      `  ${percent(tally.machinesFlagged, tally.machines).padStart(6)} / ${percent(tally.humansFlagged, tally.humans).padStart(6)}  ${kind}`,
    );
  }
  printPublicCorpora();
}

if (isMain(import.meta.url)) run();
