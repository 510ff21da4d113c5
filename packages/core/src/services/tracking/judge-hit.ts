import { classifyHistory, classifyHit } from "../../measurement/classify-hit.js";
import {
  type ClassificationOptions,
  earlierHitOf,
  type HitSignals,
  type HitVerdict,
} from "../../measurement/hit-verdict.js";
import type { RecentHits } from "./recent-hits.js";

/** A hit's verdict at arrival, and whether it revealed a pattern in the message's earlier hits. */
export interface JudgedHit {
  verdict: HitVerdict;
  /**
   * True when this hit showed that earlier hits judged human were a machine's (a burst found by
   * its third click): their stored verdicts are to be revised.
   */
  revealsEarlier: boolean;
}

/**
 * Judges a hit on the message's recent hits and remembers it. When the hit is a machine's, the
 * recent hits are judged again with it, and earlier human verdicts that now fall are replaced in
 * memory (so the next hit sees them) and reported, for the store to revise.
 */
export function judgeHit(
  recentHits: RecentHits,
  emailId: string,
  hit: HitSignals,
  classification: ClassificationOptions,
): JudgedHit {
  const earlier = recentHits.of(emailId, hit.at);
  const verdict = classifyHit(hit, earlier, classification);
  let revealsEarlier = false;
  if (verdict.machine && recentHits.humansOf(emailId) > 0) {
    const revised = classifyHistory([...earlier, hit], classification);
    // A copy: revising a verdict must not change the list being walked.
    [...earlier].forEach((other, index) => {
      const now = revised[index]!;
      if (!other.verdict.machine && now.machine) {
        recentHits.revise(emailId, other, now);
        revealsEarlier = true;
      }
    });
  }
  recentHits.add(emailId, earlierHitOf(hit, verdict));
  return { verdict, revealsEarlier };
}
