/** The tracking comparisons of issue 7, in the order `npm run bench` runs them. */

/** One comparison: MailPulse through an adapter vs the bare framework, at some connection counts. */
export interface TrackingCase {
  route: "pixel" | "click";
  framework: "fastify" | "express";
  storage: "sqlite" | "postgres";
  /** Connection counts to run at (`BENCH_CONNECTIONS` overrides). */
  connections: number[];
  /**
   * Also run MailPulse with its tracking write skipped (`skipTrackingWrites`), interleaved with
   * the other two: how close to the bare route everything but the database gets.
   */
  noWriteCeiling?: boolean;
}

/**
 * Pixel through both adapters at 10 and 50 connections; clicks at 50, where a burst of
 * security-gateway clicks lands. The baseline is always the bare route of the same framework.
 */
export const trackingCases: readonly TrackingCase[] = [
  { route: "pixel", framework: "fastify", storage: "sqlite", connections: [10, 50], noWriteCeiling: true },
  { route: "pixel", framework: "express", storage: "sqlite", connections: [10, 50] },
  { route: "click", framework: "fastify", storage: "sqlite", connections: [50] },
  { route: "pixel", framework: "fastify", storage: "postgres", connections: [10, 50] },
  { route: "click", framework: "fastify", storage: "postgres", connections: [50] },
];

/** `pixel · Fastify · SQLite file` */
export function describeCase(trackingCase: TrackingCase): string {
  const framework = trackingCase.framework === "fastify" ? "Fastify" : "Express";
  const storage = trackingCase.storage === "sqlite" ? "SQLite file" : "PostgreSQL";
  return `${trackingCase.route} · ${framework} · ${storage}`;
}

/**
 * Whether a case name is selected by `BENCH_ONLY`: every word of it (split at spaces, commas and
 * `·`) occurs in the name, case-insensitively, so `pixel sqlite`, `pixel, Fastify, SQLite` and
 * the name as printed all select the SQLite pixel case. No words selects every case.
 */
export function isSelected(name: string, only: string | undefined): boolean {
  const words = (only ?? "")
    .toLowerCase()
    .split(/[\s,·]+/)
    .filter(Boolean);
  const lowerName = name.toLowerCase();
  return words.every((word) => lowerName.includes(word));
}
