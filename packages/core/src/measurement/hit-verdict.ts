/**
 * The vocabulary of measurement: what a hit (an open or a click) looked like when it arrived, and
 * the verdict on who made it. docs/measurement.md explains every source and signal.
 */

/** Who made a hit, as far as its signals tell. */
export type HitSource = "apple_privacy" | "image_proxy" | "security_scanner" | "bot" | "human";

/** Every {@link HitSource}, in the order the docs list them. */
export const hitSources: readonly HitSource[] = [
  "apple_privacy",
  "image_proxy",
  "security_scanner",
  "bot",
  "human",
];

/** The raw signals of one hit, as the tracking endpoint saw them. */
export interface HitSignals {
  type: "open" | "click";
  /** The HTTP method: a person's mail client or browser sends GET. */
  method: "GET" | "HEAD";
  userAgent: string | null;
  /** The client's full address (before the IP retention setting truncates what is stored). */
  ip: string | null;
  /** When it happened, epoch milliseconds. */
  at: number;
  /** Milliseconds since the message was sent; null when the send time is unknown. */
  msSinceSent: number | null;
  /** Clicks: the link's tracking id (each occurrence of a URL has its own). */
  linkId: string | null;
}

/** The verdict on one hit. */
export interface HitVerdict {
  /** True when a program, not a person reading the message, made the hit. */
  machine: boolean;
  source: HitSource;
  /** Why, each a short sentence a person understands. Never empty. */
  reasons: string[];
}

/** An earlier hit of the same message, with the verdict it was given. */
export interface EarlierHit extends HitSignals {
  verdict: HitVerdict;
}

/**
 * A hit's signals with a verdict, as a new {@link EarlierHit}. Written out field by field rather
 * than as `{ ...hit, verdict }`: in a server under load V8 gave every spread copy a hidden class
 * of its own (170,239 remembered hits held 170,239 maps, about 50 MB of the heap, which the
 * garbage collector then walked), and a spread copy cost 1.3 µs against 0.2 µs for this literal
 * (bench/RESULTS.md).
 */
export function earlierHitOf(hit: HitSignals, verdict: HitVerdict): EarlierHit {
  return {
    type: hit.type,
    method: hit.method,
    userAgent: hit.userAgent,
    ip: hit.ip,
    at: hit.at,
    msSinceSent: hit.msSinceSent,
    linkId: hit.linkId,
    verdict,
  };
}

/**
 * A rule of your own, consulted before the built-in ones: return a verdict to decide, or
 * `undefined` to leave the hit to the next rule. Pure: same input, same answer.
 */
export type ClassificationRule = (
  hit: HitSignals,
  earlierHits: readonly EarlierHit[],
) => HitVerdict | undefined;

/** Options of the classifier. */
export interface ClassificationOptions {
  /** Your rules, tried in order before the built-in ones (e.g. your company's gateway range). */
  rules?: readonly ClassificationRule[];
}

/** The verdict when nothing points to a machine: we never hide a reader on a guess. */
export const noMachineSignal: HitVerdict = {
  machine: false,
  source: "human",
  reasons: ["no machine signal"],
};
