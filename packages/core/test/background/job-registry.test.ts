import { describe, expect, it } from "vitest";
import { createJobRegistry, type RegisteredJob } from "../../src/background/job-registry.js";

/** A job that writes what happens to it in `log`; its stop waits for `stopGate` when given one. */
function job(name: string, log: string[], behaviour: { stopError?: Error; stopGate?: Promise<void> } = {}) {
  return {
    name,
    async start() {
      log.push(`start ${name}`);
    },
    async stop() {
      log.push(`stop ${name}`);
      await behaviour.stopGate;
      if (behaviour.stopError) throw behaviour.stopError;
      log.push(`stopped ${name}`);
    },
  } satisfies RegisteredJob;
}

describe("createJobRegistry", () => {
  it("starts the jobs in the order given and stops them in the reverse order", async () => {
    const log: string[] = [];
    const registry = createJobRegistry([
      job("a", log),
      { name: "b", stop: () => void log.push("stop b") },
      job("c", log),
    ]);
    await registry.start();
    await registry.stop();
    expect(log).toEqual(["start a", "start c", "stop c", "stopped c", "stop b", "stop a", "stopped a"]);
  });

  it("waits for each stop before the next", async () => {
    const log: string[] = [];
    let open!: () => void;
    const stopGate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const registry = createJobRegistry([job("first", log), job("last", log, { stopGate })]);
    const stopping = registry.stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["stop last"]);
    open();
    await stopping;
    expect(log).toEqual(["stop last", "stopped last", "stop first", "stopped first"]);
  });

  it("stops every job when one stop fails, then rejects with that error", async () => {
    const log: string[] = [];
    const failure = new Error("pool would not close");
    const registry = createJobRegistry([job("a", log), job("b", log, { stopError: failure }), job("c", log)]);
    await expect(registry.stop()).rejects.toBe(failure);
    expect(log).toEqual(["stop c", "stopped c", "stop b", "stop a", "stopped a"]);
  });

  it("collects the errors of several failed stops into one AggregateError, in stop order", async () => {
    const log: string[] = [];
    const first = new Error("first to fail");
    const second = new Error("second to fail");
    const registry = createJobRegistry([
      job("provider", log, { stopError: second }),
      job("writer", log),
      job("worker", log, { stopError: first }),
    ]);
    const error = await registry.stop().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AggregateError);
    expect((error as AggregateError).errors).toEqual([first, second]);
    expect((error as AggregateError).message).toContain("worker, provider");
    expect(log).toEqual(["stop worker", "stop writer", "stopped writer", "stop provider"]);
  });

  it("stops once however often it is called, and starts nothing once stopped", async () => {
    const log: string[] = [];
    const registry = createJobRegistry([job("a", log)]);
    expect(registry.stopped).toBe(false);
    const stopping = registry.stop();
    expect(registry.stop()).toBe(stopping);
    await Promise.all([stopping, registry.stop()]);
    expect(registry.stopped).toBe(true);
    await registry.start();
    expect(log).toEqual(["stop a", "stopped a"]);
  });
});
