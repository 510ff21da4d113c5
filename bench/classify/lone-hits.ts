import { addressRanges, appleRanges, type HitSignals, securityGatewayRanges } from "@mailpulse/core";

/** Late enough that no timing rule applies: a reader who opened the message over coffee. */
const minutesAfterSend = 5;
const sentAt = Date.UTC(2026, 10, 23, 9, 0, 0);

const publishedRanges = addressRanges([
  ...appleRanges.cidrs,
  ...securityGatewayRanges.flatMap((range) => range.cidrs),
]);

/**
 * A reader's address: 203.0.113.0/24 (TEST-NET-3, RFC 5737) stands for a home connection. It is
 * in no published range, and this checks it, so that the address never decides a verdict.
 */
function readerAddress(index: number): string {
  const address = `203.0.113.${(index % 254) + 1}`;
  if (publishedRanges.has(address)) throw new Error(`${address} is in a published range`);
  return address;
}

/**
 * The hits one user agent makes: a pixel fetch and a link click, each the only hit of its own
 * message, by GET, from a reader's address, minutes after the send. No method, address, timing or
 * pattern rule can fire, so the verdict is the user agent's alone.
 */
export function loneHits(userAgent: string, index: number): HitSignals[] {
  const at = sentAt + minutesAfterSend * 60_000;
  const common = {
    method: "GET",
    userAgent,
    ip: readerAddress(index),
    at,
    msSinceSent: at - sentAt,
  } as const;
  return [
    { ...common, type: "open", linkId: null },
    { ...common, type: "click", linkId: "link-1" },
  ];
}
