import type { Storage, TrackingHit } from "@mailpulse/core/storage";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { createTrackingWriter, type QueuedHit } from "../../src/background/tracking-writer.js";

/** Real storages opened by a test, closed after it. */
const opened: Storage[] = [];
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});

/** An open hit named by its email id, which is all these tests look at. */
function hit(emailId: string): TrackingHit {
  return {
    event: {
      type: "open",
      organizationId: "org",
      emailId,
      campaignId: null,
      linkId: null,
      occurredAt: new Date("2026-05-01T10:00:00.000Z"),
      ip: null,
      userAgent: null,
      method: "GET",
      msSinceSent: null,
      verdict: { machine: false, source: "human", reasons: ["no machine signal"] },
    },
  };
}

const names = (count: number) => Array.from({ length: count }, (_, i) => `h${i + 1}`);

/** Lets the writer run: a few turns of the event loop (its flush starts on `setImmediate`). */
async function turns(count = 5): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Watches a promise without awaiting it. */
function watch<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

/**
 * The store side of the writer, held by the test: each `record` call waits until the test
 * releases it (or resolves at once with `autoRelease`), so "before" and "after commit" can be
 * observed. Refuses, like a database would, every batch holding a hit of `refuse`.
 */
function createHeldStore(options: { autoRelease?: boolean; refuse?: (emailId: string) => boolean } = {}) {
  const calls: Array<{ hits: string[]; release(): void }> = [];
  const committed: string[] = [];
  let autoRelease = options.autoRelease ?? false;
  return {
    calls,
    /** Email ids of each call, in call order. */
    batches: () => calls.map((call) => call.hits),
    /** Email ids of the calls that resolved (committed), in commit order. */
    committed,
    record(hits: readonly TrackingHit[]): Promise<number> {
      const ids = hits.map((h) => h.event.emailId);
      return new Promise<number>((resolve, reject) => {
        const release = () => {
          const refused = ids.find((id) => options.refuse?.(id));
          if (refused) {
            reject(new Error(`refused ${refused}`));
          } else {
            committed.push(...ids);
            resolve(ids.length);
          }
        };
        calls.push({ hits: ids, release: once(release) });
        if (autoRelease) release();
      });
    },
    /** Releases every call made so far, and every later one as it comes. */
    releaseAll() {
      autoRelease = true;
      for (const call of calls) call.release();
    },
  };
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

async function queueAll(writer: ReturnType<typeof createTrackingWriter>, ids: string[]) {
  return Promise.all(ids.map((id) => writer.queue(hit(id))));
}

describe("tracking writer: group commit", () => {
  it("writes the hits queued in one turn of the event loop in one store call", async () => {
    const store = createHeldStore({ autoRelease: true });
    const writer = createTrackingWriter({ record: (h) => store.record(h), batchSize: 500, queueSize: 1000 });
    const queued = await queueAll(writer, names(5));
    await Promise.all(queued.map((q) => q.committed));
    expect(store.batches()).toEqual([names(5)]);
  });

  it("splits a turn's hits into batches of at most batchSize, keeping their order", async () => {
    const store = createHeldStore({ autoRelease: true });
    const writer = createTrackingWriter({ record: (h) => store.record(h), batchSize: 2, queueSize: 1000 });
    const queued = await queueAll(writer, names(5));
    await Promise.all(queued.map((q) => q.committed));
    expect(store.batches()).toEqual([["h1", "h2"], ["h3", "h4"], ["h5"]]);
  });

  it("gathers the hits that arrive while a batch is being written into the next batch", async () => {
    const store = createHeldStore();
    const writer = createTrackingWriter({ record: (h) => store.record(h), batchSize: 500, queueSize: 1000 });
    const first = await writer.queue(hit("h1"));
    await turns();
    expect(store.batches()).toEqual([["h1"]]);
    // Three hits in three separate turns, all while h1's batch is still being written.
    const later: QueuedHit[] = [];
    for (const id of ["h2", "h3", "h4"]) {
      later.push(await writer.queue(hit(id)));
      await turns();
    }
    expect(store.batches()).toEqual([["h1"]]);
    expect(writer.queued).toBe(3);
    store.releaseAll();
    await Promise.all([first, ...later].map((q) => q.committed));
    expect(store.batches()).toEqual([["h1"], ["h2", "h3", "h4"]]);
    expect(writer.queued).toBe(0);
  });

  it("writes up to `concurrency` batches at once, and the next batch as soon as one slot is free", async () => {
    const store = createHeldStore();
    const writer = createTrackingWriter({
      record: (h) => store.record(h),
      batchSize: 500,
      queueSize: 1000,
      concurrency: 2,
    });
    const first = await writer.queue(hit("h1"));
    await turns();
    // A second slot is free: the next turn's hit goes at once, without waiting for h1's batch.
    const second = await writer.queue(hit("h2"));
    await turns();
    expect(store.batches()).toEqual([["h1"], ["h2"]]);
    // Both slots busy: these wait, together.
    const waiting = await queueAll(writer, ["h3", "h4"]);
    await turns();
    expect(store.batches()).toHaveLength(2);
    expect(writer.queued).toBe(2);
    store.calls[1]!.release();
    await second.committed;
    await turns();
    expect(store.batches()).toEqual([["h1"], ["h2"], ["h3", "h4"]]);
    const drained = watch(writer.drain());
    await turns();
    expect(drained.settled).toBe(false);
    store.releaseAll();
    await Promise.all([first, ...waiting].map((q) => q.committed));
    await writer.drain();
    expect(store.committed.sort()).toEqual(["h1", "h2", "h3", "h4"]);
  });

  it("settles `committed` only after the store call for its batch has resolved", async () => {
    const store = createHeldStore();
    const writer = createTrackingWriter({ record: (h) => store.record(h), batchSize: 1, queueSize: 10 });
    const [a, b] = await queueAll(writer, ["a", "b"]);
    const aCommitted = watch(a!.committed);
    const bCommitted = watch(b!.committed);
    await turns();
    expect(store.batches()).toEqual([["a"]]);
    expect(aCommitted.settled).toBe(false);

    store.calls[0]!.release();
    await turns();
    expect(aCommitted).toEqual({ settled: true, value: undefined });
    // b's batch was only just handed to the store: a's commit says nothing about it.
    expect(store.batches()).toEqual([["a"], ["b"]]);
    expect(bCommitted.settled).toBe(false);

    store.calls[1]!.release();
    await turns();
    expect(bCommitted.settled).toBe(true);
    expect(store.committed).toEqual(["a", "b"]);
  });
});

describe("tracking writer: back-pressure", () => {
  it("makes queue() wait while the queue is full and admits the hit once a batch is taken", async () => {
    const store = createHeldStore();
    const writer = createTrackingWriter({ record: (h) => store.record(h), batchSize: 1, queueSize: 2 });
    const first = await writer.queue(hit("h1"));
    await turns();
    expect(store.batches()).toEqual([["h1"]]);
    const second = await writer.queue(hit("h2"));
    const third = await writer.queue(hit("h3"));
    expect(writer.queued).toBe(2);

    const fourth = watch(writer.queue(hit("h4")));
    await turns();
    expect(fourth.settled).toBe(false);
    expect(writer.queued).toBe(2);

    // h1 commits; the writer takes h2 into the next batch, which makes room for h4.
    store.calls[0]!.release();
    await turns();
    expect(fourth.settled).toBe(true);
    expect(store.batches()).toEqual([["h1"], ["h2"]]);
    expect(writer.queued).toBe(2);

    store.releaseAll();
    await Promise.all([first, second, third, fourth.value!].map((q) => q.committed));
    expect(store.committed).toEqual(["h1", "h2", "h3", "h4"]);
  });

  it("never drops a hit, and never holds more than queueSize waiting, under a burst", async () => {
    const store = createHeldStore({ autoRelease: true });
    let mostQueued = 0;
    const writer = createTrackingWriter({
      record: async (hits) => {
        mostQueued = Math.max(mostQueued, writer.queued);
        await turns(1);
        return store.record(hits);
      },
      batchSize: 3,
      queueSize: 5,
    });
    const ids = names(60);
    const queued = await Promise.all(
      ids.map(async (id) => {
        const q = await writer.queue(hit(id));
        mostQueued = Math.max(mostQueued, writer.queued);
        return q;
      }),
    );
    await Promise.all(queued.map((q) => q.committed));
    expect(mostQueued).toBeLessThanOrEqual(5);
    expect([...store.committed].sort()).toEqual([...ids].sort());
    expect(store.batches().every((batch) => batch.length <= 3)).toBe(true);
  });
});

describe("tracking writer: a batch the store refuses", () => {
  it("bisects it so the refused hit fails alone and every other hit commits exactly once", async () => {
    const store = createHeldStore({ autoRelease: true, refuse: (id) => id === "h3" });
    const writer = createTrackingWriter({ record: (h) => store.record(h), batchSize: 500, queueSize: 1000 });
    const queued = await queueAll(writer, names(6));
    const outcomes = await Promise.allSettled(queued.map((q) => q.committed));

    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    // The caller of the refused hit gets the store's own error.
    expect((outcomes[2] as PromiseRejectedResult).reason).toEqual(new Error("refused h3"));
    expect([...store.committed].sort()).toEqual(["h1", "h2", "h4", "h5", "h6"]);
    // Halves: [h1..h6] -> [h1 h2 h3] -> [h1 h2] ok, [h3] refused; [h4 h5 h6] ok.
    expect(store.batches()).toEqual([
      ["h1", "h2", "h3", "h4", "h5", "h6"],
      ["h1", "h2", "h3"],
      ["h1", "h2"],
      ["h3"],
      ["h4", "h5", "h6"],
    ]);
  });

  it("rejects every caller with the error when the store refuses every hit, and keeps writing later hits", async () => {
    let down = true;
    const store = createHeldStore({ autoRelease: true, refuse: () => down });
    const writer = createTrackingWriter({ record: (h) => store.record(h), batchSize: 500, queueSize: 1000 });
    const queued = await queueAll(writer, names(3));
    const outcomes = await Promise.allSettled(queued.map((q) => q.committed));
    expect(outcomes.every((outcome) => outcome.status === "rejected")).toBe(true);
    expect(store.committed).toEqual([]);

    down = false;
    const later = await writer.queue(hit("h4"));
    await later.committed;
    expect(store.committed).toEqual(["h4"]);
  });

  it("on a real storage, rolls the refused batch back so the other hits are counted once", async () => {
    const storage = sqliteStorage({ filename: ":memory:" });
    opened.push(storage);
    await storage.migrate();
    const emailId = await sentEmail(storage);
    const writer = createTrackingWriter({
      record: (hits) => storage.tracking.recordEvents(hits),
      batchSize: 500,
      queueSize: 1000,
    });
    const opening = (n: number): TrackingHit => {
      const base = hit(emailId);
      // The fourth hit has no time: its event row breaks a NOT NULL constraint inside the transaction.
      const occurredAt = n === 4 ? new Date(Number.NaN) : base.event.occurredAt;
      return { event: { ...base.event, occurredAt, userAgent: `ua-${n}` } };
    };
    const hits = [1, 2, 3, 4, 5].map(opening);
    const queued = await Promise.all(hits.map((h) => writer.queue(h)));
    const outcomes = await Promise.allSettled(queued.map((q) => q.committed));
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    expect((await storage.emails.get("org", emailId))?.openCount).toBe(4);
    const events = await storage.events.list("org", { limit: 10, types: ["open"] });
    expect(events.map((event) => event.userAgent).sort()).toEqual(["ua-1", "ua-2", "ua-3", "ua-5"]);
  });
});

describe("tracking writer: drain", () => {
  it("resolves at once when nothing is queued", async () => {
    const writer = createTrackingWriter({ record: async (h) => h.length, batchSize: 10, queueSize: 10 });
    await writer.drain();
    expect(writer.queued).toBe(0);
  });

  it("resolves only once every queued hit has been written, over several batches", async () => {
    const store = createHeldStore();
    const writer = createTrackingWriter({ record: (h) => store.record(h), batchSize: 3, queueSize: 100 });
    await queueAll(writer, names(7));
    const drained = watch(writer.drain());
    await turns();
    expect(drained.settled).toBe(false);
    store.releaseAll();
    await writer.drain();
    expect(store.committed).toEqual(names(7));
    expect(store.batches().map((batch) => batch.length)).toEqual([3, 3, 1]);
    expect(writer.queued).toBe(0);
  });

  it("also writes the hits that were waiting for room when it was called", async () => {
    const store = createHeldStore();
    const writer = createTrackingWriter({ record: (h) => store.record(h), batchSize: 1, queueSize: 2 });
    const admitted = names(6).map((id) => watch(writer.queue(hit(id))));
    await turns();
    // h1 is being written, h2 and h3 wait in the queue, h4..h6 wait for room.
    expect(admitted.map((state) => state.settled)).toEqual([true, true, true, false, false, false]);
    const drained = writer.drain();
    store.releaseAll();
    await drained;
    expect(store.committed).toEqual(names(6));
  });

  it("resolves (does not reject) when a batch failed", async () => {
    const store = createHeldStore({ autoRelease: true, refuse: (id) => id === "h2" });
    const writer = createTrackingWriter({ record: (h) => store.record(h), batchSize: 10, queueSize: 10 });
    const queued = await queueAll(writer, names(3));
    const failed = queued[1]!.committed.catch((error: unknown) => error);
    await writer.drain();
    expect(store.committed).toEqual(["h1", "h3"]);
    expect(await failed).toEqual(new Error("refused h2"));
  });
});

/** An organization "org" with one sent email; returns its id. */
async function sentEmail(storage: Storage): Promise<string> {
  await storage.organizations.create({ id: "org", name: "Acme", createdAt: new Date("2026-05-01") });
  const id = "email-1";
  await storage.emails.create(
    {
      id,
      organizationId: "org",
      campaignId: null,
      trackingId: "t-1",
      origin: "register",
      fromAddress: "a@acme.example",
      sender: "a@acme.example",
      replyTo: null,
      subject: "Hello",
      metadata: null,
      trackOpens: true,
      trackClicks: true,
      recipients: [{ kind: "to", address: "bob@example.com", display: "bob@example.com" }],
      links: [],
      createdAt: new Date("2026-05-01T09:00:00.000Z"),
    },
    { providerMessageId: null, sentAt: new Date("2026-05-01T09:00:00.000Z") },
  );
  return id;
}
