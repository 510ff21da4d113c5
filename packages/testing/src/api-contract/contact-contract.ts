import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noContactFeedback } from "../reader-figures.js";
import { createTestClock } from "../test-clock.js";
import { type ApiTestTarget, createApiClient, createTenant, type StartApiTarget } from "./api-target.js";
import { contractPlatformDomain } from "./send-contract.js";

/** The URL of a `Link: <url>; rel="next"` header, or undefined. */
function nextLink(headers: Headers): string | undefined {
  return /<([^>]+)>;\s*rel="next"/.exec(headers.get("link") ?? "")?.[1];
}

/** `GET /api/contacts` (array body, Link-header paging) and `GET /api/contacts/:email` over HTTP. */
export function contactContract(start: StartApiTarget): void {
  describe("contacts", () => {
    const clock = createTestClock("2026-03-01T08:00:00.000Z");
    let target: ApiTestTarget;
    let acme: { key: string };
    let beta: { key: string };

    const summary = (email: string, lastActivity: string, extra: Record<string, unknown> = {}) => ({
      email,
      totalEmails: 1,
      totalOpens: 0,
      totalClicks: 0,
      campaigns: [],
      engagementScore: 0,
      lastActivity,
      humanOpens: 0,
      humanClicks: 0,
      humanEngagementScore: 0,
      ...extra,
    });
    // Ann opens in Thunderbird (a person); then a script fetches her pixel (a machine).
    const ann = summary("ann+tag@example.com", "2026-03-05T08:00:00.000Z", {
      totalOpens: 2,
      campaigns: ["Launch"],
      engagementScore: 100,
      humanOpens: 1,
      humanEngagementScore: 100,
    });
    const carol = summary("carol@example.com", "2026-03-03T08:00:00.000Z");
    const bob = summary("bob@example.com", "2026-03-02T08:00:00.000Z");

    beforeAll(async () => {
      target = await start({ clock, platformDomain: contractPlatformDomain });
      const call = createApiClient(target.baseUrl);
      acme = await createTenant(target.mailpulse, "Acme");
      beta = await createTenant(target.mailpulse, "Beta");
      const send = async (json: Record<string, unknown>) => {
        const response = await call("POST", "/api/send", {
          key: acme.key,
          json: { from: "news@acme.example", subject: "Hello", htmlContent: "<p>Hi</p>", ...json },
        });
        expect(response.status).toBe(200);
        return response.body as { emailTrackingId: string };
      };
      const launch = await send({ to: "Ann+Tag@Example.com", campaignId: "Launch" });
      clock.set("2026-03-02T08:00:00.000Z");
      await send({ to: "bob@example.com" });
      clock.set("2026-03-03T08:00:00.000Z");
      await send({ to: "carol@example.com", cc: "dave@example.com" });
      clock.set("2026-03-04T08:00:00.000Z");
      const pixel = `${target.baseUrl}/api/t/o/${launch.emailTrackingId}`;
      const thunderbird = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0";
      expect((await fetch(pixel, { headers: { "user-agent": thunderbird } })).status).toBe(200);
      clock.set("2026-03-05T08:00:00.000Z");
      expect((await fetch(pixel, { headers: { "user-agent": "curl/8.4.0" } })).status).toBe(200);
    });
    afterAll(async () => {
      await target?.close();
    });

    it("lists contacts as a JSON array, most recent activity first, without Link on the last page", async () => {
      const call = createApiClient(target.baseUrl);
      const response = await call("GET", "/api/contacts", { key: acme.key });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([ann, carol, bob]);
      expect(response.headers.get("link")).toBeNull();
      const empty = await call("GET", "/api/contacts", { key: beta.key });
      expect(empty).toMatchObject({ status: 200, body: [] });
    });

    it("pages with limit and cursor through the Link header's next URL, keeping the search", async () => {
      const call = createApiClient(target.baseUrl);
      const seen: unknown[] = [];
      let path: string | undefined = "/api/contacts?search=EXAMPLE&limit=1";
      for (let page = 0; path && page < 5; page++) {
        const response = await call("GET", path, { key: acme.key });
        expect(response.status).toBe(200);
        expect(response.body).toHaveLength(1);
        seen.push(...response.body);
        const next = nextLink(response.headers);
        if (next) {
          expect(next.startsWith(`${target.baseUrl}/api/contacts?search=EXAMPLE&limit=1&cursor=`)).toBe(true);
        }
        path = next?.slice(target.baseUrl.length);
      }
      expect(seen).toEqual([ann, carol, bob]);
      expect((await call("GET", "/api/contacts?search=aR", { key: acme.key })).body).toEqual([carol]);
    });

    it("answers 400 naming the parameter for a bad limit or cursor", async () => {
      const call = createApiClient(target.baseUrl);
      for (const query of ["limit=0", "limit=1001", "limit=ten", "limit=1.5"]) {
        const response = await call("GET", `/api/contacts?${query}`, { key: acme.key });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: expect.stringContaining('"limit"') });
      }
      const cursor = await call("GET", "/api/contacts?cursor=not-ours", { key: acme.key });
      expect(cursor).toMatchObject({ status: 400, body: { error: expect.stringContaining('"cursor"') } });
    });

    it("details a contact by its URL-encoded address, case-insensitively", async () => {
      const call = createApiClient(target.baseUrl);
      const expected = {
        ...ann,
        firstSeen: "2026-03-01T08:00:00.000Z",
        openRate: 2,
        clickRate: 0,
        ...noContactFeedback,
        timeline: [
          {
            type: "opened",
            timestamp: "2026-03-05T08:00:00.000Z",
            subject: "Hello",
            campaign: "Launch",
            machine: true,
            source: "bot",
          },
          {
            type: "opened",
            timestamp: "2026-03-04T08:00:00.000Z",
            subject: "Hello",
            campaign: "Launch",
            machine: false,
            source: "human",
          },
          { type: "sent", timestamp: "2026-03-01T08:00:00.000Z", subject: "Hello", campaign: "Launch" },
        ],
      };
      for (const path of [encodeURIComponent("Ann+Tag@Example.com"), "ann+tag@example.com"]) {
        const response = await call("GET", `/api/contacts/${path}`, { key: acme.key });
        expect(response).toMatchObject({ status: 200, body: expected });
      }
    });

    it("answers 404 for a cc-only address, an unknown one and another organization's contact", async () => {
      const call = createApiClient(target.baseUrl);
      for (const [key, address] of [
        [acme.key, "dave@example.com"],
        [acme.key, "nobody@example.com"],
        [beta.key, "bob@example.com"],
      ] as const) {
        expect(await call("GET", `/api/contacts/${encodeURIComponent(address)}`, { key })).toMatchObject({
          status: 404,
          body: { error: "Contact not found" },
        });
      }
    });
  });
}
