import { describe, expect, it } from "vitest";
import { earlierHitOf, type HitSignals, type HitVerdict } from "../../src/measurement/hit-verdict.js";

describe("earlierHitOf", () => {
  // `Required`: a field added to HitSignals, even an optional one, makes this sample fail to
  // compile until it is listed here, and the test below then checks that it is copied.
  const hit: Required<HitSignals> = {
    type: "click",
    method: "GET",
    userAgent: "Mozilla/5.0 (Macintosh) Mail",
    ip: "198.51.100.7",
    at: 1_764_000_000_123,
    msSinceSent: 42_000,
    linkId: "link-1",
  };
  const verdict: HitVerdict = { machine: false, source: "human", reasons: ["no machine signal"] };

  it("copies every signal of the hit and adds the verdict, as a new object", () => {
    const earlier = earlierHitOf(hit, verdict);
    expect(earlier).toEqual({ ...hit, verdict });
    expect(Object.keys(earlier).sort()).toEqual([...Object.keys(hit), "verdict"].sort());
    expect(earlier).not.toBe(hit);
    expect(earlier.verdict).toBe(verdict);
  });
});
