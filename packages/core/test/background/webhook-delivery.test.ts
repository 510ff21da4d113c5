import type { Storage } from "@mailpulse/core/storage";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWebhookDeliveryWorker } from "../../src/background/webhook-delivery.js";
import type { Clock } from "../../src/ports/clock.js";

const hour = 60 * 60 * 1000;
const retentionMs = 30 * 24 * hour;

describe("the webhook delivery worker's purge", () => {
  let storage: Storage;
  beforeEach(async () => {
    storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
  });
  afterEach(async () => {
    await storage.close();
  });

  it("purges once an hour by the injected clock, not the machine's", async () => {
    // Years from the machine's time, and moved by hand: only this clock can say an hour passed.
    let now = Date.parse("2031-06-01T08:00:00.000Z");
    const clock: Clock = { now: () => new Date(now) };
    const purgedBefore: Date[] = [];
    const worker = createWebhookDeliveryWorker({
      storage: {
        ...storage,
        deliveries: {
          ...storage.deliveries,
          purgeFinished: (before) => {
            purgedBefore.push(before);
            return storage.deliveries.purgeFinished(before);
          },
        },
      },
      deliver: () => Promise.reject(new Error("nothing is due: nothing is delivered")),
      clock,
      logger: { info() {}, error() {} },
      policy: { retryDelaysMs: [1000], disableAfterMs: hour, random: () => 0 },
      batchSize: 20,
      leaseMs: 60_000,
      pollIntervalMs: 1000,
      retentionMs,
    });

    expect(await worker.runOnce()).toBe(0);
    expect(purgedBefore).toEqual([new Date(now - retentionMs)]);

    now += hour - 1;
    await worker.runOnce();
    expect(purgedBefore).toHaveLength(1);

    now += 1;
    await worker.runOnce();
    expect(purgedBefore).toEqual([
      new Date(Date.parse("2031-06-01T08:00:00.000Z") - retentionMs),
      new Date(now - retentionMs),
    ]);
    await worker.stop();
  });
});
