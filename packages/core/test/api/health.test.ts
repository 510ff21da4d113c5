/**
 * `GET /api/health` (issue 30): no API key; 200 while the storage answers, `degraded` until
 * `start()` and after `stop()`; 503 naming nothing once the storage is closed (a real closed
 * SQLite database, not a mock).
 */
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { createTestMailPulse } from "@mailpulse/testing";
import { describe, expect, it } from "vitest";

describe("GET /api/health", () => {
  it("reports storage, background work and the tracking queue, without a key", async () => {
    const storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
    const kit = await createTestMailPulse({ storage });
    const health = async () => {
      const response = await kit.mailpulse.handler(new Request("https://mailpulse.test/api/health"));
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    try {
      const before = await health();
      expect(before).toEqual({
        status: 200,
        body: {
          status: "degraded",
          storage: { reachable: true, latencyMs: expect.any(Number) },
          background: { started: false },
          queues: { trackingHits: 0 },
        },
      });

      await kit.mailpulse.start();
      expect((await health()).body).toMatchObject({ status: "ok", background: { started: true } });

      await kit.mailpulse.stop();
      expect((await health()).body).toMatchObject({ status: "degraded", background: { started: false } });

      await storage.close();
      const down = await health();
      expect(down).toEqual({ status: 503, body: { error: "Storage is unreachable" } });
    } finally {
      await kit.close();
    }
  });
});
