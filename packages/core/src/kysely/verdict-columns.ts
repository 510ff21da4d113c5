import type { HitSource, HitVerdict } from "../measurement/hit-verdict.js";
import { hitSources } from "../measurement/hit-verdict.js";

/** A verdict as the event row stores it. */
export interface VerdictColumns {
  machine: number;
  source: string;
  reasons: string;
}

/** The columns of a verdict. */
export function verdictColumns(verdict: HitVerdict): VerdictColumns {
  return {
    machine: verdict.machine ? 1 : 0,
    source: verdict.source,
    reasons: JSON.stringify(verdict.reasons),
  };
}

/** The verdict of stored columns; an unknown source (written by a newer version) reads as human. */
export function verdictOf(row: { machine: number | string; source: string; reasons: string }): HitVerdict {
  const source = (hitSources as readonly string[]).includes(row.source) ? (row.source as HitSource) : "human";
  let reasons: string[];
  try {
    const parsed: unknown = JSON.parse(row.reasons);
    reasons = Array.isArray(parsed) ? parsed.map(String) : [String(parsed)];
  } catch {
    reasons = [row.reasons];
  }
  return { machine: Number(row.machine) === 1, source, reasons };
}
