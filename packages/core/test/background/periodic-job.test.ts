import { describe, expect, it } from "vitest";
import { createPeriodicJob } from "../../src/background/periodic-job.js";
import type { Scheduler } from "../../src/background/scheduler.js";

/** A scheduler the test fires by hand: `fire()` runs the pending call, as its timer would. */
function manualScheduler() {
  const pending: Array<{ ms: number; callback: () => void }> = [];
  const scheduler: Scheduler = {
    after(ms, callback) {
      const entry = { ms, callback };
      pending.push(entry);
      return () => {
        pending.splice(pending.indexOf(entry), 1);
      };
    },
  };
  return {
    scheduler,
    pending,
    fire() {
      const entry = pending.shift();
      entry?.callback();
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("createPeriodicJob", () => {
  it("runs at start, then everyMs after each run ends, until stopped", async () => {
    const timers = manualScheduler();
    let runs = 0;
    const job = createPeriodicJob({
      name: "count",
      run: async () => ++runs,
      everyMs: 5000,
      logger: { info() {}, error() {} },
      scheduler: timers.scheduler,
    });
    await job.start();
    await job.start(); // idempotent
    await flush();
    expect(runs).toBe(1);
    expect(timers.pending.map((entry) => entry.ms)).toEqual([5000]);
    timers.fire();
    await flush();
    expect(runs).toBe(2);
    await job.stop();
    expect(timers.pending).toEqual([]);
    await job.start(); // a stopped job stays stopped
    expect(runs).toBe(2);
  });

  it("awaits the first run only when asked to, and stop() waits for the run under way", async () => {
    let finish!: () => void;
    let done = false;
    const job = createPeriodicJob({
      name: "slow",
      run: () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }).then(() => {
          done = true;
        }),
      everyMs: 1000,
      logger: { info() {}, error() {} },
      scheduler: manualScheduler().scheduler,
    });
    await job.start();
    expect(done).toBe(false);
    let stopped = false;
    const stopping = job.stop().then(() => {
      stopped = true;
    });
    await flush();
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(done).toBe(true);
  });

  it("shares the run under way with runOnce() instead of starting a second one", async () => {
    let runs = 0;
    let finish!: () => void;
    const job = createPeriodicJob({
      name: "shared",
      run: async () => {
        runs += 1;
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
        return runs;
      },
      everyMs: 1000,
      logger: { info() {}, error() {} },
      scheduler: manualScheduler().scheduler,
    });
    const first = job.runOnce();
    const second = job.runOnce();
    finish();
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(runs).toBe(1);
  });

  it("logs a failed scheduled run and keeps its schedule; runOnce() rejects with the error", async () => {
    const timers = manualScheduler();
    const logged: string[] = [];
    const failure = new Error("database away");
    const job = createPeriodicJob({
      name: "flaky job",
      run: () => Promise.reject(failure),
      everyMs: 1000,
      logger: { info() {}, error: (message) => void logged.push(message) },
      scheduler: timers.scheduler,
      awaitFirstRun: true,
    });
    await job.start();
    expect(logged).toEqual(["MailPulse: flaky job failed"]);
    expect(timers.pending).toHaveLength(1);
    await expect(job.runOnce()).rejects.toBe(failure);
    await job.stop();
  });
});
