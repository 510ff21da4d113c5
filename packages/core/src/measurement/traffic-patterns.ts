import type { EarlierHit, HitSignals, HitVerdict } from "./hit-verdict.js";

/**
 * Patterns in the hits of one message that a person cannot produce: what catches a scanner
 * that sends a browser's user agent from an address nobody publishes. Each threshold is
 * documented (and justified) in docs/measurement.md; the labelled set in
 * test/measurement/labelled-hits.ts holds the readers they must not flag.
 */
export const patternThresholds = {
  /** A click this soon after sending: the message has barely been delivered. */
  clickAfterSendMs: 5_000,
  /** Two different links within this window: a person has to come back to the message between. */
  twoLinksWithinMs: 1_000,
  /** Three different links within this window. */
  threeLinksWithinMs: 3_000,
  /** A click this soon after an open from the same address. */
  clickAfterOpenMs: 1_000,
  /** An address that made machine hits on the message is still that machine this long after. */
  sameMachineAddressMs: 60_000,
} as const;

/** The widest window {@link linkBurst} looks at, worked out once rather than on every click. */
const widestBurstWindowMs = Math.max(
  patternThresholds.twoLinksWithinMs,
  patternThresholds.threeLinksWithinMs,
);

/** A pattern's verdict on a hit, or undefined. */
type PatternVerdict = HitVerdict | undefined;

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** A click too soon after the send for anyone to have read the message. */
export function clickTooSoon(hit: HitSignals): PatternVerdict {
  if (hit.type !== "click" || hit.msSinceSent === null) return undefined;
  if (hit.msSinceSent < 0 || hit.msSinceSent >= patternThresholds.clickAfterSendMs) return undefined;
  return scanner(`link followed ${seconds(hit.msSinceSent)} after sending, before a reader could open it`);
}

/**
 * Several different links of the message followed within a moment: a scanner visiting every
 * link. `neighbours` are the message's other hits: the earlier ones when a hit arrives, all of
 * them when history is re-classified (so a burst found by its third click flags the first two).
 */
export function linkBurst(hit: HitSignals, neighbours: readonly HitSignals[]): PatternVerdict {
  if (hit.type !== "click") return undefined;
  // A burst needs another link followed within the widest window: without one, skip building the
  // windows (a message clicked again and again on one link is the common case).
  const anotherLink = neighbours.some(
    (other) =>
      other.type === "click" &&
      other.linkId !== hit.linkId &&
      Math.abs(other.at - hit.at) <= widestBurstWindowMs,
  );
  if (!anotherLink) return undefined;
  const clicks = neighbours.filter((other) => other.type === "click" && other !== hit);
  for (const [count, windowMs] of [
    [2, patternThresholds.twoLinksWithinMs],
    [3, patternThresholds.threeLinksWithinMs],
  ] as const) {
    const burst = burstContaining(hit, clicks, windowMs);
    if (burst.links >= count) {
      const sameAddress = burst.addresses === 1 ? ", all from one address" : "";
      return scanner(`${burst.links} different links followed within ${seconds(burst.spanMs)}${sameAddress}`);
    }
  }
  return undefined;
}

/** The most distinct links in any window of `windowMs` that contains `hit`. */
function burstContaining(hit: HitSignals, clicks: readonly HitSignals[], windowMs: number) {
  const near = clicks.filter((other) => Math.abs(other.at - hit.at) <= windowMs);
  let best = { links: 1, addresses: 1, spanMs: 0 };
  // A window that holds the hit starts at the hit, or at a neighbour's time before it.
  for (const start of [hit.at, ...near.map((other) => other.at)]) {
    if (start > hit.at) continue;
    const inWindow = [hit, ...near.filter((other) => other.at >= start && other.at <= start + windowMs)];
    const links = new Set(inWindow.map((other) => other.linkId)).size;
    if (links > best.links) {
      const times = inWindow.map((other) => other.at);
      best = {
        links,
        addresses: new Set(inWindow.map((other) => other.ip)).size,
        spanMs: Math.max(...times) - Math.min(...times),
      };
    }
  }
  return best;
}

/** A click under a second after the same address fetched the pixel: no time to read. */
export function clickRightAfterOpen(hit: HitSignals, earlier: readonly HitSignals[]): PatternVerdict {
  if (hit.type !== "click" || hit.ip === null) return undefined;
  const open = earlier.find(
    (other) =>
      other.type === "open" &&
      other.ip === hit.ip &&
      hit.at - other.at >= 0 &&
      hit.at - other.at < patternThresholds.clickAfterOpenMs,
  );
  if (!open) return undefined;
  return scanner(`link followed ${seconds(hit.at - open.at)} after the same address loaded the pixel`);
}

/**
 * A hit from the client (same address and user agent) that made security-scanner hits on this
 * message moments before (or after, when history is re-classified): the same scanner fetching
 * the pixel or coming back. The user agent must match too: behind one office address a reader's
 * mail client and a scanner's browser are two clients, and the reader is not hidden on a guess.
 */
export function sameMachineAddress(hit: HitSignals, neighbours: readonly EarlierHit[]): PatternVerdict {
  if (hit.ip === null) return undefined;
  // The verdict first: most neighbours are not a scanner's, and it is cheaper than comparing strings.
  const machine = neighbours.find(
    (other) =>
      other.verdict.source === "security_scanner" &&
      other.verdict.machine &&
      other !== hit &&
      other.ip === hit.ip &&
      other.userAgent === hit.userAgent &&
      Math.abs(hit.at - other.at) <= patternThresholds.sameMachineAddressMs,
  );
  if (!machine) return undefined;
  return scanner(
    `the same address and user agent made hits on this message judged a security scanner ${seconds(Math.abs(hit.at - machine.at))} apart`,
  );
}

function scanner(reason: string): HitVerdict {
  return { machine: true, source: "security_scanner", reasons: [reason] };
}
