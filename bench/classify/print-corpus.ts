import { count } from "../lib/format.js";
import type { CorpusJudgement, Count, Disagreement } from "./judge-corpus.js";
import { upperBound95 } from "./upper-bound.js";

/** How many disagreeing user agents the report lists: enough to see what fails. */
const listedAtMost = 10;

const percent = (part: number, whole: number) =>
  whole === 0 ? "-" : `${((part / whole) * 100).toFixed(1)}%`;

const flaggedOf = ({ hits, flagged }: Count) =>
  `${count(flagged)}/${count(hits)} hits flagged (${percent(flagged, hits)})`;

/**
 * Why each corpus' figure is not the independent evidence it looks like; printed with the
 * figures so that nobody quotes them without it.
 */
const caveats: Record<CorpusJudgement["corpus"]["expected"], string> = {
  human:
    "not independent of isbot: top-user-agents drops every string isbot flags before publishing, so isbot " +
    "cannot flag these by construction; what this tests is the classifier's other user-agent rules (bare " +
    "Mozilla/5.0, gateway and image-proxy names, empty) and that nothing else misfires on common browsers",
  machine:
    "not independent evidence of recall: isbot's pattern list is built and tested on crawler-user-agents, " +
    "so this mostly shows that the classifier hands user agents to isbot intact",
};

/** Prints one corpus' figures, its breakdowns, and the user agents it gets wrong. */
export function printCorpus(judgement: CorpusJudgement): void {
  const { corpus, total } = judgement;
  const userAgents = corpus.entries.length;
  console.log(
    `\n${corpus.packageName} ${corpus.version}: ${count(userAgents)} user agents, expected ${corpus.expected}`,
  );
  console.log(`  all         ${flaggedOf(total)}`);
  if (corpus.expected === "human") printHumanBound(judgement);
  else printRecallWithoutImageProxies(judgement);
  console.log(`  caveat: ${caveats[corpus.expected]}`);
  console.log("  by group:");
  for (const [group, groupCount] of [...judgement.byGroup].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`    ${group.padEnd(18)} ${flaggedOf(groupCount)}`);
  }
  console.log("  flagged hits by deciding rule:");
  if (judgement.byRule.size === 0) console.log("    none");
  for (const [rule, hits] of [...judgement.byRule].sort(([, a], [, b]) => b - a)) {
    console.log(`    ${count(hits).padStart(6)}  ${rule}`);
  }
  printDisagreements(judgement);
}

/** The false-alarm bound counts user agents, not hits: a user agent's open and click agree. */
function printHumanBound({ corpus, disagreements }: CorpusJudgement): void {
  const flaggedUserAgents = new Set(disagreements.map((hit) => hit.userAgent)).size;
  const bound = upperBound95(flaggedUserAgents, corpus.entries.length);
  console.log(
    `  user agents flagged ${flaggedUserAgents}/${corpus.entries.length}: the true share is at most ` +
      `${(bound * 100).toFixed(1)}% with 95% confidence (goal <= 2%)`,
  );
}

function printRecallWithoutImageProxies({ total, imageProxyOpens }: CorpusJudgement): void {
  if (imageProxyOpens === 0) return;
  console.log(
    `  without the ${imageProxyOpens} image-proxy opens (a reader's open by policy, not a miss): ` +
      `${percent(total.flagged, total.hits - imageProxyOpens)} flagged (goal >= 95%)`,
  );
}

function printDisagreements({ corpus, disagreements }: CorpusJudgement): void {
  const byUserAgent = new Map<string, Disagreement[]>();
  for (const hit of disagreements)
    byUserAgent.set(hit.userAgent, [...(byUserAgent.get(hit.userAgent) ?? []), hit]);
  const what = corpus.expected === "human" ? "human user agents flagged" : "crawler instances not flagged";
  const shown = Math.min(byUserAgent.size, listedAtMost);
  console.log(
    `  ${what}: ${byUserAgent.size} user agents, ${disagreements.length} hits${shown ? ` (first ${shown}):` : ""}`,
  );
  for (const [userAgent, hits] of [...byUserAgent].slice(0, listedAtMost)) {
    const types = hits.map((hit) => hit.type).join("+");
    const { verdict, groups } = hits[0]!;
    console.log(
      `    [${types}; ${groups.join(", ")}] ${verdict.source}: ${verdict.reasons[0]}\n      ${userAgent}`,
    );
  }
}
