import { describe, expect, it } from "vitest";
import { noFeedback } from "../reader-figures.js";
import { type ApiTestTarget, createApiClient, createTenant } from "./api-target.js";

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The campaign endpoints, as the spec describes them. */
export function campaignContract(target: () => ApiTestTarget, limitedTarget: () => ApiTestTarget): void {
  describe("campaigns", () => {
    it("creates a campaign (201), lists it and shows its empty detail", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      const created = await call("POST", "/api/campaigns", { key, json: { name: "  Spring launch " } });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        name: "Spring launch",
        createdAt: expect.stringMatching(isoTimestamp),
      });

      const list = await call("GET", "/api/campaigns", { key });
      expect(list).toMatchObject({ status: 200, body: { campaigns: [created.body] } });

      const detail = await call("GET", `/api/campaigns/${created.body.id}`, { key });
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual({
        ...created.body,
        stats: {
          totalEmails: 0,
          totalOpens: 0,
          totalClicks: 0,
          openRate: 0,
          clickRate: 0,
          ...noFeedback,
          human: { totalOpens: 0, totalClicks: 0, openRate: 0, clickRate: 0, noInteraction: 0 },
        },
        links: [],
        emails: [],
      });
    });

    it("answers 400 naming the field when the name is missing, empty or not a string", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      for (const json of [{}, { name: "" }, { name: "   " }, { name: 42 }]) {
        const response = await call("POST", "/api/campaigns", { key, json });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: expect.stringContaining('"name"') });
      }
      expect((await call("GET", "/api/campaigns", { key })).body).toEqual({ campaigns: [] });
    });

    it("answers 409 for a duplicate name in the organization, but allows it in another", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const acme = await createTenant(mailpulse, "Acme");
      const beta = await createTenant(mailpulse, "Beta");
      expect((await call("POST", "/api/campaigns", { key: acme.key, json: { name: "News" } })).status).toBe(
        201,
      );
      const duplicate = await call("POST", "/api/campaigns", { key: acme.key, json: { name: "News" } });
      expect(duplicate).toMatchObject({ status: 409, body: { error: expect.stringContaining("News") } });
      expect((await call("POST", "/api/campaigns", { key: beta.key, json: { name: "News" } })).status).toBe(
        201,
      );
    });

    it("hides campaigns of other organizations: 404 on detail and archive, absent from lists", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const acme = await createTenant(mailpulse, "Acme");
      const beta = await createTenant(mailpulse, "Beta");
      const { body: campaign } = await call("POST", "/api/campaigns", {
        key: acme.key,
        json: { name: "Secret" },
      });
      for (const [method, path] of [
        ["GET", `/api/campaigns/${campaign.id}`],
        ["POST", `/api/campaigns/${campaign.id}/archive`],
        ["GET", "/api/campaigns/does-not-exist"],
      ] as const) {
        const response = await call(method, path, { key: beta.key });
        expect(response).toMatchObject({ status: 404, body: { error: "Campaign not found" } });
      }
      expect((await call("GET", "/api/campaigns", { key: beta.key })).body).toEqual({ campaigns: [] });
      expect((await call("GET", `/api/campaigns/${campaign.id}`, { key: acme.key })).status).toBe(200);
    });

    it("archives once: excluded from the list, a second archive is 400", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      const { body: first } = await call("POST", "/api/campaigns", { key, json: { name: "First" } });
      const { body: second } = await call("POST", "/api/campaigns", { key, json: { name: "Second" } });
      expect(
        (await call("GET", "/api/campaigns", { key })).body.campaigns.map((c: { name: string }) => c.name),
      ).toEqual(["Second", "First"]);
      expect(await call("POST", `/api/campaigns/${first.id}/archive`, { key })).toMatchObject({
        status: 200,
        body: { success: true },
      });
      expect((await call("GET", "/api/campaigns", { key })).body).toEqual({ campaigns: [second] });
      expect(await call("POST", `/api/campaigns/${first.id}/archive`, { key })).toMatchObject({
        status: 400,
        body: { error: "Campaign is already archived" },
      });
      // The archived campaign's detail stays readable.
      expect((await call("GET", `/api/campaigns/${first.id}`, { key })).status).toBe(200);
    });

    it("answers 403 naming the limit when the plan's campaign limit is reached", async () => {
      const { mailpulse, baseUrl } = limitedTarget();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      const { body: first } = await call("POST", "/api/campaigns", { key, json: { name: "One" } });
      expect((await call("POST", "/api/campaigns", { key, json: { name: "Two" } })).status).toBe(201);
      const third = await call("POST", "/api/campaigns", { key, json: { name: "Three" } });
      expect(third).toMatchObject({ status: 403, body: { error: expect.stringContaining("allows 2") } });
      await call("POST", `/api/campaigns/${first.id}/archive`, { key });
      expect((await call("POST", "/api/campaigns", { key, json: { name: "Three" } })).status).toBe(201);
    });
  });
}
