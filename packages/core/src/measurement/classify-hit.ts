import { type AddressRanges, addressRanges } from "./address-ranges.js";
import {
  type ClassificationOptions,
  type EarlierHit,
  earlierHitOf,
  type HitSignals,
  type HitVerdict,
  noMachineSignal,
} from "./hit-verdict.js";
import { appleRanges, type PublishedRange, securityGatewayRanges } from "./published-ranges.js";
import {
  clickRightAfterOpen,
  clickTooSoon,
  linkBurst,
  patternThresholds,
  sameMachineAddress,
} from "./traffic-patterns.js";
import { userAgentFactsOf } from "./user-agent-facts.js";

const apple = addressRanges(appleRanges.cidrs);
const gateways: ReadonlyArray<{ range: PublishedRange; addresses: AddressRanges }> =
  securityGatewayRanges.map((range) => ({ range, addresses: addressRanges(range.cidrs) }));

/**
 * Judges one open or click: was it a person reading the message, or a machine (Apple's privacy
 * prefetch, a security scanner, a bot)? Pure: the verdict depends only on the hit's signals, the
 * message's earlier hits (with their verdicts) and the rules. Where nothing points to a machine
 * the verdict is `human` with reason "no machine signal": a reader is never hidden on a guess.
 *
 * Your `rules` are tried first; then, in order: the HTTP method, Apple Mail Privacy Protection,
 * mail providers' image proxies, published gateway addresses, the user agent, and the patterns of
 * the message's hits (timing and breadth). docs/measurement.md lists every signal and its source.
 */
export function classifyHit(
  hit: HitSignals,
  earlierHits: readonly EarlierHit[],
  options: ClassificationOptions = {},
): HitVerdict {
  for (const rule of options.rules ?? []) {
    const verdict = rule(hit, earlierHits);
    if (verdict) return verdict;
  }
  return signalVerdict(hit) ?? patternVerdict(hit, earlierHits, earlierHits) ?? noMachineSignal;
}

/**
 * Judges every hit of one message again, oldest first, and then lets later hits revise earlier
 * verdicts where a pattern only showed later (a burst discovered by its third click also flags
 * the first two; a scanner's pixel fetch just before its clicks). Returns one verdict per hit, in
 * the order given. What a re-classification over history runs, and what revisions are checked
 * against.
 */
export function classifyHistory(
  hits: readonly HitSignals[],
  options: ClassificationOptions = {},
): HitVerdict[] {
  const order = hits
    .map((hit, index) => ({ hit, index }))
    .sort((a, b) => a.hit.at - b.hit.at || a.index - b.index);
  const judged: EarlierHit[] = [];
  const verdicts: HitVerdict[] = new Array(hits.length);
  for (const { hit, index } of order) {
    const verdict = classifyHit(hit, judged, options);
    judged.push(earlierHitOf(hit, verdict));
    verdicts[index] = verdict;
  }
  // Second pass: a person's verdict may fall to a pattern that needed later hits to show.
  const all = order.map(({ index }, position) => earlierHitOf(judged[position]!, verdicts[index]!));
  for (const [position, { index }] of order.entries()) {
    if (verdicts[index]!.machine) continue;
    if (customRuleDecides(hits[index]!, all.slice(0, position), options)) continue;
    const revised = patternVerdict(all[position]!, all, all);
    if (revised) {
      verdicts[index] = {
        ...revised,
        reasons: [...revised.reasons, "revised once later hits showed the pattern"],
      };
    }
  }
  return verdicts;
}

/** Whether one of the caller's rules decides the hit: its verdict then stands. */
function customRuleDecides(hit: HitSignals, earlier: readonly EarlierHit[], options: ClassificationOptions) {
  return (options.rules ?? []).some((rule) => rule(hit, earlier) !== undefined);
}

/** What the hit's own signals (method, address, user agent) decide, without its neighbours. */
function signalVerdict(hit: HitSignals): HitVerdict | undefined {
  if (hit.method === "HEAD") {
    const early = hit.msSinceSent !== null && hit.msSinceSent < patternThresholds.sameMachineAddressMs;
    return {
      machine: true,
      source: early || gatewayOf(hit) ? "security_scanner" : "bot",
      reasons: ["HEAD request: a program checking the link; a person's mail client or browser sends GET"],
    };
  }
  const agent = userAgentFactsOf(hit.userAgent);
  if (hit.type === "open" && agent.applePrivacy) {
    return {
      machine: true,
      source: "apple_privacy",
      reasons: [
        apple.has(hit.ip)
          ? "Apple Mail Privacy Protection proxy address and user agent"
          : "Apple Mail Privacy Protection user agent (a bare Mozilla/5.0)",
      ],
    };
  }
  const proxy = agent.imageProxy;
  if (proxy && hit.type === "open") {
    return {
      machine: false,
      source: "image_proxy",
      reasons: [`${proxy} image proxy, fetching the pixel for a reader who opened the message`],
    };
  }
  const gateway = gatewayOf(hit);
  if (gateway) {
    return {
      machine: true,
      source: gateway.source,
      reasons: [`address of the ${gateway.operator} mail security gateway`],
    };
  }
  const signal = agent.signal;
  if (signal) return { machine: true, source: signal.source, reasons: [signal.reason] };
  return undefined;
}

function gatewayOf(hit: HitSignals): PublishedRange | undefined {
  return gateways.find(({ range, addresses }) => range.decides.includes(hit.type) && addresses.has(hit.ip))
    ?.range;
}

/** What the message's other hits reveal about this one. */
function patternVerdict(
  hit: HitSignals,
  neighbours: readonly HitSignals[],
  judgedNeighbours: readonly EarlierHit[],
): HitVerdict | undefined {
  return (
    clickTooSoon(hit) ??
    linkBurst(hit, neighbours) ??
    clickRightAfterOpen(hit, neighbours) ??
    sameMachineAddress(hit, judgedNeighbours)
  );
}
