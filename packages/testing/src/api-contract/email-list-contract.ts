import { type MemoryProvider, memoryProvider } from "@mailpulse/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestClock } from "../test-clock.js";
import { type ApiTestTarget, createApiClient, createTenant, type StartApiTarget } from "./api-target.js";

/**
 * `GET /api/emails` over real HTTP: `{data, nextCursor}` pages newest first, each item the answer
 * of `GET /api/emails/{id}`, the filters, refusals of a bad query, and organization scoping.
 */
export function emailListContract(start: StartApiTarget): void {
  describe("email list", () => {
    const clock = createTestClock("2026-06-01T08:00:00.000Z");
    let provider: MemoryProvider;
    let target: ApiTestTarget;
    let call: ReturnType<typeof createApiClient>;
    beforeAll(async () => {
      provider = memoryProvider();
      target = await start({ clock, mailProvider: provider, platformDomain: "mailpulse.test" });
      call = createApiClient(target.baseUrl);
    });
    afterAll(async () => {
      await target?.close();
    });

    const html = "<html><body><p>Hi</p></body></html>";

    it("pages an organization's emails newest first, with filters, and shows no other organization's", async () => {
      const acme = await createTenant(target.mailpulse, "Acme");
      const other = await createTenant(target.mailpulse, "Other");
      const sent: string[] = [];
      for (const [index, to] of ["ann@example.com", "Cy <Cy@Example.com>", "bob@example.com"].entries()) {
        const answer = await call("POST", "/api/send", {
          key: acme.key,
          json: {
            from: "news@acme.example",
            to,
            subject: `s${index}`,
            htmlContent: html,
            ...(index > 0 ? { campaignId: "Spring" } : {}),
          },
        });
        expect(answer.status).toBe(200);
        sent.push(answer.body.emailId);
        clock.advance(60_000);
      }
      const foreign = await call("POST", "/api/send", {
        key: other.key,
        json: { from: "x@other.example", to: "cy@example.com", subject: "foreign", htmlContent: html },
      });
      expect(foreign.status).toBe(200);

      const all = await call("GET", "/api/emails", { key: acme.key });
      expect(all.status).toBe(200);
      expect(all.body.nextCursor).toBeNull();
      expect(all.body.data.map((email: { subject: string }) => email.subject)).toEqual(["s2", "s1", "s0"]);
      const detail = await call("GET", `/api/emails/${sent[1]}`, { key: acme.key });
      expect(all.body.data[1]).toEqual(detail.body);

      const first = await call("GET", "/api/emails?limit=2", { key: acme.key });
      expect(first.body.data.map((email: { subject: string }) => email.subject)).toEqual(["s2", "s1"]);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await call(
        "GET",
        `/api/emails?limit=2&after=${encodeURIComponent(first.body.nextCursor)}`,
        {
          key: acme.key,
        },
      );
      expect(second.body.data.map((email: { subject: string }) => email.subject)).toEqual(["s0"]);
      expect(second.body.nextCursor).toBeNull();

      const campaignId = detail.body.campaignId;
      const inCampaign = await call("GET", `/api/emails?campaignId=${campaignId}`, { key: acme.key });
      expect(inCampaign.body.data.map((email: { subject: string }) => email.subject)).toEqual(["s2", "s1"]);
      const toCy = await call("GET", "/api/emails?to=%20CY%40example.COM", { key: acme.key });
      expect(toCy.body.data.map((email: { subject: string }) => email.subject)).toEqual(["s1"]);
      const range = await call(
        "GET",
        "/api/emails?since=2026-06-01T08:01:00Z&until=2026-06-01T08:02:00.000Z",
        {
          key: acme.key,
        },
      );
      expect(range.body.data.map((email: { subject: string }) => email.subject)).toEqual(["s1"]);
      const sentOnly = await call("GET", "/api/emails?status=sent&limit=1", { key: acme.key });
      expect(sentOnly.body.data.map((email: { subject: string }) => email.subject)).toEqual(["s2"]);
      expect((await call("GET", "/api/emails?status=bounced", { key: acme.key })).body).toEqual({
        data: [],
        nextCursor: null,
      });

      // The other organization sees only its own email, even naming Acme's campaign or recipient.
      const theirs = await call("GET", "/api/emails", { key: other.key });
      expect(theirs.body.data.map((email: { subject: string }) => email.subject)).toEqual(["foreign"]);
      expect(
        (await call("GET", `/api/emails?campaignId=${campaignId}`, { key: other.key })).body.data,
      ).toEqual([]);
      expect((await call("GET", `/api/emails/${sent[0]}`, { key: other.key })).status).toBe(404);
    });

    it("refuses a bad query with 400 naming the parameter", async () => {
      const { key } = await createTenant(target.mailpulse);
      const cases: [string, string][] = [
        ["limit=101", '"limit": must be at most 100'],
        ["limit=0", '"limit": must be at least 1'],
        ["status=lost", '"status": must be one of sending, sent, failed, unknown, suppressed, bounced'],
        ["after=bm90LWEtY3Vyc29y", '"after" is not a cursor MailPulse issued'],
        ["since=yesterday", '"since": must be an ISO 8601 time'],
        ["since=2026-06-02T00:00:00Z&until=2026-06-01T00:00:00Z", '"until": must be after since'],
        ["to=bob%40", '"to":'],
      ];
      for (const [query, message] of cases) {
        const answer = await call("GET", `/api/emails?${query}`, { key });
        expect(answer.status, query).toBe(400);
        expect(answer.body.error, query).toContain(message);
      }
      expect((await call("GET", "/api/emails")).status).toBe(401);
    });
  });
}
