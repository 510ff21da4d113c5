import { describe, expect, it } from "vitest";
import type { EarlierHit } from "../../src/measurement/hit-verdict.js";
import { noMachineSignal } from "../../src/measurement/hit-verdict.js";
import { createRecentHits } from "../../src/services/tracking/recent-hits.js";

function hitAt(at: number): EarlierHit {
  return {
    type: "open",
    method: "GET",
    userAgent: null,
    ip: null,
    at,
    msSinceSent: null,
    linkId: null,
    verdict: noMachineSignal,
  };
}

describe("recent hits of a message", () => {
  it("gives a message's hits oldest first, and none for a message never hit", () => {
    const recent = createRecentHits({ messages: 10 });
    recent.add("a", hitAt(1_000));
    recent.add("a", hitAt(2_000));
    recent.add("b", hitAt(1_500));
    expect(recent.of("a", 3_000).map((hit) => hit.at)).toEqual([1_000, 2_000]);
    expect(recent.of("b", 3_000).map((hit) => hit.at)).toEqual([1_500]);
    expect(recent.of("c", 3_000)).toEqual([]);
  });

  it("forgets hits older than the window, as of the time asked", () => {
    const recent = createRecentHits({ messages: 10, windowMs: 1_000 });
    recent.add("a", hitAt(0));
    recent.add("a", hitAt(600));
    recent.add("a", hitAt(900));
    expect(recent.of("a", 1_000).map((hit) => hit.at)).toEqual([0, 600, 900]);
    expect(recent.of("a", 1_601).map((hit) => hit.at)).toEqual([900]);
    recent.add("a", hitAt(5_000));
    expect(recent.of("a", 5_000).map((hit) => hit.at)).toEqual([5_000]);
  });

  it("keeps the newest hits of a message up to its bound", () => {
    const recent = createRecentHits({ messages: 10, hitsPerMessage: 3 });
    for (let at = 1; at <= 5; at++) recent.add("a", hitAt(at));
    expect(recent.of("a", 5).map((hit) => hit.at)).toEqual([3, 4, 5]);
  });

  it("remembers at most its number of messages, the least recently hit leaving first", () => {
    const recent = createRecentHits({ messages: 2 });
    recent.add("a", hitAt(1));
    recent.add("b", hitAt(2));
    recent.add("a", hitAt(3));
    recent.add("c", hitAt(4));
    expect(recent.of("b", 5)).toEqual([]);
    expect(recent.of("a", 5).map((hit) => hit.at)).toEqual([1, 3]);
    expect(recent.of("c", 5).map((hit) => hit.at)).toEqual([4]);
  });
});

describe("the human hits of a message", () => {
  const machine = { machine: true, source: "bot" as const, reasons: ["a script"] };

  it("are counted as hits come, leave the window, fall past the bound and are revised", () => {
    const recent = createRecentHits({ messages: 10, windowMs: 1_000, hitsPerMessage: 3 });
    recent.add("a", hitAt(0));
    recent.add("a", { ...hitAt(100), verdict: machine });
    recent.add("a", hitAt(200));
    expect(recent.humansOf("a")).toBe(2);
    const [first] = recent.of("a", 300);
    recent.revise("a", first!, machine);
    expect(recent.humansOf("a")).toBe(1);
    expect(recent.of("a", 300)[0]!.verdict).toBe(machine);
    recent.add("a", hitAt(300));
    expect(recent.humansOf("a")).toBe(2);
    // Past the bound of 3: the revised first hit leaves, the count of humans stays.
    recent.add("a", hitAt(400));
    expect(recent.of("a", 400).map((hit) => hit.at)).toEqual([200, 300, 400]);
    expect(recent.humansOf("a")).toBe(3);
    // Out of the window as of 1,250: 200 leaves.
    recent.of("a", 1_250);
    expect(recent.humansOf("a")).toBe(2);
    expect(recent.humansOf("never hit")).toBe(0);
  });
});
