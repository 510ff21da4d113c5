import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noFeedback, noFeedbackDay } from "../reader-figures.js";
import { createTestClock } from "../test-clock.js";
import { type ApiTestTarget, createApiClient, createTenant, type StartApiTarget } from "./api-target.js";
import { contractPlatformDomain } from "./send-contract.js";

const links = '<p><a href="https://shop.test/a">A</a> and <a href="https://shop.test/b">B</a></p>';

/**
 * `GET /api/campaigns/:id/stats` and `GET /api/stats` over HTTP, on a target of its own whose
 * clock the contract moves (periods are relative to "now").
 */
export function statsContract(start: StartApiTarget): void {
  describe("statistics", () => {
    const clock = createTestClock("2026-03-09T10:00:00.000Z");
    let target: ApiTestTarget;
    let acme: { key: string };
    let beta: { key: string };
    let campaignId: string;

    beforeAll(async () => {
      target = await start({ clock, platformDomain: contractPlatformDomain });
      const call = createApiClient(target.baseUrl);
      acme = await createTenant(target.mailpulse, "Acme");
      beta = await createTenant(target.mailpulse, "Beta");
      const send = async (to: string[], cc?: string) => {
        const response = await call("POST", "/api/send", {
          key: acme.key,
          json: {
            from: "news@acme.example",
            to,
            cc,
            subject: "Launch",
            htmlContent: links,
            campaignId: "Launch",
          },
        });
        expect(response.status).toBe(200);
        return response.body as { emailTrackingId: string; links: Array<{ trackingId: string }> };
      };
      const first = await send(["Ann+Tag@Example.com", "bob@example.com"], "carol@example.com");
      // Apple Mail Privacy Protection fetches the pixel (a machine); a reader clicks the next day.
      clock.set("2026-03-09T11:00:00.000Z");
      const applePrivacy = { "user-agent": "Mozilla/5.0" };
      expect((await call("GET", `/api/t/o/${first.emailTrackingId}`, { headers: applePrivacy })).status).toBe(
        200,
      );
      const reader = {
        "user-agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0",
      };
      for (const [at, link] of [
        ["2026-03-10T09:00:00.000Z", first.links[0]],
        ["2026-03-10T09:00:30.000Z", first.links[0]],
        ["2026-03-10T09:05:00.000Z", first.links[1]],
      ] as const) {
        clock.set(at);
        expect((await call("GET", `/api/t/c/${link?.trackingId}`, { headers: reader })).status).toBe(302);
      }
      clock.set("2026-03-10T12:00:00.000Z");
      await send(["dave@example.com"]);
      clock.set("2026-03-10T15:00:00.000Z");
      const { body } = await call("GET", "/api/campaigns", { key: acme.key });
      campaignId = body.campaigns[0].id;
    });
    afterAll(async () => {
      await target?.close();
    });

    it("reports the default 30d period of a campaign, one zero-filled entry per day", async () => {
      const call = createApiClient(target.baseUrl);
      const response = await call("GET", `/api/campaigns/${campaignId}/stats`, { key: acme.key });
      expect(response.status).toBe(200);
      const { openAndClicks, ...rest } = response.body;
      expect(rest).toEqual({
        campaign: { id: campaignId, name: "Launch", createdAt: "2026-03-09T10:00:00.000Z" },
        period: { start: "2026-02-09T00:00:00.000Z", end: "2026-03-10T15:00:00.000Z" },
        stats: {
          totalEmails: 2,
          totalOpens: 1,
          totalClicks: 3,
          openRate: 50,
          clickThroughRate: 300,
          uniqueRecipients: 3,
          noInteraction: 1,
          ...noFeedback,
          human: { totalOpens: 0, totalClicks: 3, openRate: 50, clickThroughRate: 0, noInteraction: 1 },
        },
        topLinks: [
          { url: "https://shop.test/a", clicks: 2 },
          { url: "https://shop.test/b", clicks: 1 },
        ],
      });
      expect(openAndClicks).toHaveLength(30);
      expect(openAndClicks[0]).toEqual({
        date: "2026-02-09",
        opens: 0,
        clicks: 0,
        emails: 0,
        humanOpens: 0,
        humanClicks: 0,
        ...noFeedbackDay,
      });
      expect(openAndClicks.slice(-2)).toEqual([
        {
          date: "2026-03-09",
          opens: 1,
          clicks: 0,
          emails: 1,
          humanOpens: 0,
          humanClicks: 0,
          ...noFeedbackDay,
        },
        {
          date: "2026-03-10",
          opens: 0,
          clicks: 3,
          emails: 1,
          humanOpens: 0,
          humanClicks: 3,
          ...noFeedbackDay,
        },
      ]);
    });

    it("accepts an inclusive date range, with the comma percent-encoded or not", async () => {
      const call = createApiClient(target.baseUrl);
      for (const period of ["2026-03-09,2026-03-09", "2026-03-09%2C2026-03-09"]) {
        const response = await call("GET", `/api/campaigns/${campaignId}/stats?period=${period}`, {
          key: acme.key,
        });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({
          period: { start: "2026-03-09T00:00:00.000Z", end: "2026-03-09T23:59:59.999Z" },
          stats: {
            totalEmails: 1,
            totalOpens: 1,
            totalClicks: 0,
            openRate: 100,
            clickThroughRate: 0,
            uniqueRecipients: 2,
            noInteraction: 0,
          },
          openAndClicks: [{ date: "2026-03-09", opens: 1, clicks: 0, emails: 1 }],
          topLinks: [],
        });
      }
    });

    it("answers 400 listing the accepted formats for a bad period", async () => {
      const call = createApiClient(target.baseUrl);
      for (const period of [
        "14d",
        "",
        "last-week",
        "2026-02-30,2026-03-01",
        "2026-03-05,2026-03-01",
        "2024-01-01,2025-06-01",
      ]) {
        const response = await call(
          "GET",
          `/api/campaigns/${campaignId}/stats?period=${encodeURIComponent(period)}`,
          {
            key: acme.key,
          },
        );
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          error: expect.stringContaining("7d, 30d, 90d, or an inclusive date range YYYY-MM-DD,YYYY-MM-DD"),
        });
      }
    });

    it("answers 404 for another organization's campaign and an unknown id", async () => {
      const call = createApiClient(target.baseUrl);
      for (const [key, id] of [
        [beta.key, campaignId],
        [acme.key, "does-not-exist"],
      ]) {
        expect(await call("GET", `/api/campaigns/${id}/stats`, { key })).toMatchObject({
          status: 404,
          body: { error: "Campaign not found" },
        });
      }
    });

    it("totals the organization in GET /api/stats, and nothing of another one", async () => {
      const call = createApiClient(target.baseUrl);
      expect(await call("GET", "/api/stats", { key: acme.key })).toMatchObject({
        status: 200,
        body: {
          totalEmails: 2,
          totalOpens: 1,
          totalClicks: 3,
          openRate: 50,
          clickRate: 50,
          ...noFeedback,
          human: { totalOpens: 0, totalClicks: 3, openRate: 50, clickRate: 50 },
        },
      });
      expect((await call("GET", "/api/stats", { key: beta.key })).body).toEqual({
        totalEmails: 0,
        totalOpens: 0,
        totalClicks: 0,
        openRate: 0,
        clickRate: 0,
        ...noFeedback,
        human: { totalOpens: 0, totalClicks: 0, openRate: 0, clickRate: 0 },
      });
      expect(await call("GET", "/api/stats")).toMatchObject({ status: 401, body: { error: "Unauthorized" } });
    });
  });
}
