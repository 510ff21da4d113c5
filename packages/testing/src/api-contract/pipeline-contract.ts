import { describe, expect, it } from "vitest";
import { type ApiTestTarget, createApiClient, createTenant } from "./api-target.js";

/** Authentication, routing and request-body rules every route shares. */
export function pipelineContract(target: () => ApiTestTarget): void {
  describe("authentication and request handling", () => {
    it("answers 401 Unauthorized without a key, with an unknown key and with a revoked key", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const tenant = await createTenant(mailpulse);
      expect(await call("GET", "/api/campaigns")).toMatchObject({
        status: 401,
        body: { error: "Unauthorized" },
      });
      expect(await call("GET", "/api/campaigns", { key: "mp_not-a-key" })).toMatchObject({
        status: 401,
        body: { error: "Unauthorized" },
      });
      expect((await call("GET", "/api/campaigns", { key: tenant.key })).status).toBe(200);
      await mailpulse.apiKeys.revoke(tenant.organization.id, tenant.keyId);
      expect(await call("GET", "/api/campaigns", { key: tenant.key })).toMatchObject({
        status: 401,
        body: { error: "Unauthorized" },
      });
    });

    it("answers unknown routes 404 and wrong methods 405 with Allow, as JSON", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      const missing = await call("GET", "/api/nothing-here", { key });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: expect.stringContaining("/api/nothing-here") });
      const wrongMethod = await call("DELETE", "/api/campaigns", { key });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get("allow")).toBe("GET, HEAD, POST");
      expect(wrongMethod.body).toEqual({ error: expect.stringContaining("DELETE") });
    });

    it("refuses malformed JSON (400), a non-JSON content type (415) and an oversized body (413)", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      const malformed = await call("POST", "/api/campaigns", {
        key,
        raw: '{"name": ',
        headers: { "content-type": "application/json" },
      });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: expect.stringMatching(/^Invalid JSON/) });

      const form = await call("POST", "/api/campaigns", {
        key,
        raw: "name=x",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(form.status).toBe(415);
      expect(form.body).toEqual({ error: expect.stringContaining("application/json") });

      const huge = await call("POST", "/api/campaigns", {
        key,
        json: { name: "x".repeat(mailpulse.maxBodyBytes) },
      });
      expect(huge.status).toBe(413);
      // The campaign route's own limit (`maxBodyBytes`); `mailpulse.maxBodyBytes` is the largest of all routes.
      expect(huge.body).toEqual({
        error: expect.stringMatching(/^Request body exceeds the limit of \d+ bytes$/),
      });
      expect((await call("GET", "/api/campaigns", { key })).body).toEqual({ campaigns: [] });
    });

    it("answers a JSON array or a missing body with 400 naming what is wrong", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      const empty = await call("POST", "/api/campaigns", {
        key,
        headers: { "content-type": "application/json" },
      });
      expect(empty).toMatchObject({
        status: 400,
        body: { error: expect.stringContaining("body is required") },
      });
      const array = await call("POST", "/api/campaigns", { key, json: ["name"] });
      expect(array.status).toBe(400);
      expect(array.body).toEqual({ error: expect.stringContaining("Invalid request body") });
    });
  });
}
