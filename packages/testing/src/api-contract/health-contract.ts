import { describe, expect, it } from "vitest";
import { type ApiTestTarget, createApiClient } from "./api-target.js";

/** `GET /api/health` through each adapter: no key needed, and nothing but the documented fields. */
export function healthContract(target: () => ApiTestTarget): void {
  describe("health", () => {
    it("answers 200 without an API key, with storage, background and queue figures only", async () => {
      const call = createApiClient(target().baseUrl);
      const answer = await call("GET", "/api/health");
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        status: answer.body.background.started ? "ok" : "degraded",
        storage: { reachable: true, latencyMs: expect.any(Number) },
        background: { started: expect.any(Boolean) },
        queues: { trackingHits: expect.any(Number) },
      });
    });
  });
}
