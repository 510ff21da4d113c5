import { classifyHistory, type HitSignals, type HitVerdict } from "@mailpulse/core";
import { loneHits } from "./lone-hits.js";
import type { PublicCorpus } from "./public-corpora.js";

/** Hits and flagged hits of one group of a corpus (or of all of it). */
export interface Count {
  hits: number;
  flagged: number;
}

/** A hit whose verdict disagrees with the corpus' label. */
export interface Disagreement {
  userAgent: string;
  /** The user agent's groups (crawler-user-agents' tags say what its publisher took it for). */
  groups: readonly string[];
  type: HitSignals["type"];
  verdict: HitVerdict;
}

/** How the classifier judged every hit made from one corpus' user agents. */
export interface CorpusJudgement {
  corpus: PublicCorpus;
  total: Count;
  byGroup: Map<string, Count>;
  /** Flagged hits by the rule that flagged them (the verdict's first reason, match left out). */
  byRule: Map<string, number>;
  /**
   * Machine corpora: opens an image proxy made, which the policy counts as a reader's open
   * (docs/measurement.md), so they are not flagged and not a miss either.
   */
  imageProxyOpens: number;
  /** Human corpus: hits flagged; machine corpus: hits not flagged (image-proxy opens left out). */
  disagreements: Disagreement[];
}

/**
 * The rule behind a machine verdict. isbot's reason quotes the pattern that matched, which
 * differs per user agent; without it the reasons group by rule.
 */
function ruleOf(verdict: HitVerdict): string {
  const reason = verdict.reasons[0] ?? "(no reason)";
  return reason.startsWith("user agent of a bot")
    ? "isbot pattern list"
    : reason.replace(/ \("[^"]*"\)$/, "");
}

/**
 * Judges every user agent of the corpus as its lone open and its lone click, each with
 * `classifyHistory` on a one-hit message (what re-classification stores; with no other hit it is
 * also the verdict at arrival), and counts the verdicts against the corpus' label.
 */
export function judgeCorpus(corpus: PublicCorpus): CorpusJudgement {
  const judgement: CorpusJudgement = {
    corpus,
    total: { hits: 0, flagged: 0 },
    byGroup: new Map(),
    byRule: new Map(),
    imageProxyOpens: 0,
    disagreements: [],
  };
  corpus.entries.forEach((entry, index) => {
    for (const hit of loneHits(entry.userAgent, index)) {
      const [verdict] = classifyHistory([hit]);
      if (!verdict) throw new Error("classifyHistory returned no verdict for a one-hit message");
      const counts = [judgement.total, ...entry.groups.map((group) => groupCount(judgement, group))];
      for (const count of counts) {
        count.hits++;
        if (verdict.machine) count.flagged++;
      }
      if (verdict.machine) {
        const rule = ruleOf(verdict);
        judgement.byRule.set(rule, (judgement.byRule.get(rule) ?? 0) + 1);
      }
      if (corpus.expected === "machine" && verdict.source === "image_proxy") judgement.imageProxyOpens++;
      else if (verdict.machine !== (corpus.expected === "machine")) {
        judgement.disagreements.push({
          userAgent: entry.userAgent,
          groups: entry.groups,
          type: hit.type,
          verdict,
        });
      }
    }
  });
  return judgement;
}

function groupCount(judgement: CorpusJudgement, group: string): Count {
  let count = judgement.byGroup.get(group);
  if (!count) {
    count = { hits: 0, flagged: 0 };
    judgement.byGroup.set(group, count);
  }
  return count;
}
