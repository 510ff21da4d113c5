import { describe, expect, it } from "vitest";
import { createInFlight } from "../../src/util/in-flight.js";

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe("createInFlight", () => {
  it("settles at once when nothing runs", async () => {
    await createInFlight().settled();
  });

  it("waits for work under way, and for work started while it waits", async () => {
    const inFlight = createInFlight();
    const first = deferred();
    const second = deferred();
    void inFlight.run(() => first.promise);
    let settled = false;
    const waiting = inFlight.settled().then(() => {
      settled = true;
    });
    void inFlight.run(() => second.promise);
    first.resolve();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    second.resolve();
    await waiting;
    expect(settled).toBe(true);
  });

  it("hands failures to the caller of run, and still settles", async () => {
    const inFlight = createInFlight();
    const work = deferred();
    const running = inFlight.run(() => work.promise);
    work.reject(new Error("refused"));
    await expect(running).rejects.toThrow("refused");
    await inFlight.settled();
  });
});
