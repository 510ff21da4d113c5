import { describe, expect, it } from "vitest";
import { createBatchLoader } from "../../src/util/batch-loader.js";

function recordingLoader(maxBatch?: number) {
  const calls: string[][] = [];
  const load = createBatchLoader(async (keys) => {
    calls.push([...keys]);
    if (keys.includes("boom")) throw new Error("database down");
    return new Map(keys.filter((key) => key !== "missing").map((key) => [key, key.toUpperCase()]));
  }, maxBatch);
  return { load, calls };
}

describe("createBatchLoader", () => {
  it("answers every load of one turn with one call, each key once", async () => {
    const { load, calls } = recordingLoader();
    const answers = await Promise.all([load("a"), load("b"), load("a"), load("missing")]);
    expect(answers).toEqual(["A", "B", "A", undefined]);
    expect(calls).toEqual([["a", "b", "missing"]]);
  });

  it("starts a new call for loads made after the first was sent", async () => {
    const { load, calls } = recordingLoader();
    await load("a");
    await load("b");
    expect(calls).toEqual([["a"], ["b"]]);
  });

  it("splits a turn's keys into calls of at most maxBatch", async () => {
    const { load, calls } = recordingLoader(2);
    expect(await Promise.all(["a", "b", "c"].map(load))).toEqual(["A", "B", "C"]);
    expect(calls).toEqual([["a", "b"], ["c"]]);
  });

  it("rejects every load of a failed call, and recovers for the next turn", async () => {
    const { load } = recordingLoader();
    const results = await Promise.allSettled([load("boom"), load("a")]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    expect(await load("a")).toBe("A");
  });
});
