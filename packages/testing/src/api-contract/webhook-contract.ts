import { memoryProvider } from "@mailpulse/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticLookup } from "../static-lookup.js";
import { createTestClock } from "../test-clock.js";
import { type ApiTestTarget, createApiClient, createTenant, type StartApiTarget } from "./api-target.js";

const thunderbird = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0";
const chrome =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** What the test resolver answers: one public receiver, one name inside a private network. */
const lookup = createStaticLookup({
  "hooks.example.com": "93.184.216.34",
  "intranet.example.com": "10.1.2.3",
});

const allEvents = ["EMAIL_SENT", "EMAIL_OPENED", "EMAIL_CLICKED"];

/**
 * `/api/webhooks` and `/api/events` over real HTTP: the spec's CRUD with its checks (HTTPS, known
 * events, public addresses, the per-organization limit, 404 for foreign ids), the deliveries the
 * API's own sends, opens and clicks queue, and the event log they are built from. Delivery
 * itself (HTTPS, signatures, retries) is tested against a real receiver in the core's tests.
 */
export function webhookContract(start: StartApiTarget): void {
  describe("webhooks and events", () => {
    const clock = createTestClock("2026-04-01T08:00:00.000Z");
    let target: ApiTestTarget;
    let call: ReturnType<typeof createApiClient>;
    beforeAll(async () => {
      target = await start({ clock, mailProvider: memoryProvider(), webhooks: { lookup } });
      call = createApiClient(target.baseUrl);
    });
    afterAll(async () => {
      await target?.close();
    });

    it("creates, lists, updates and deletes webhooks in the spec's shape", async () => {
      const { key, organization } = await createTenant(target.mailpulse);
      const created = await call("POST", "/api/webhooks", {
        key,
        json: { url: "https://hooks.example.com/in", events: ["EMAIL_OPENED", "EMAIL_SENT"] },
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        url: "https://hooks.example.com/in",
        events: ["EMAIL_OPENED", "EMAIL_SENT"],
        secret: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
        isActive: true,
        organizationId: organization.id,
        createdAt: "2026-04-01T08:00:00.000Z",
        updatedAt: "2026-04-01T08:00:00.000Z",
      });
      const { id, secret } = created.body;
      expect((await call("GET", "/api/webhooks", { key })).body).toEqual([created.body]);

      clock.advance(60_000);
      const paused = await call("PATCH", `/api/webhooks/${id}`, {
        key,
        json: { isActive: false, events: ["EMAIL_CLICKED"] },
      });
      expect(paused.status).toBe(200);
      expect(paused.body).toEqual({
        ...created.body,
        isActive: false,
        events: ["EMAIL_CLICKED"],
        updatedAt: "2026-04-01T08:01:00.000Z",
      });
      clock.advance(60_000);
      const moved = await call("PATCH", `/api/webhooks/${id}`, {
        key,
        json: { url: "https://hooks.example.com/v2", isActive: true },
      });
      expect(moved.body).toMatchObject({ url: "https://hooks.example.com/v2", isActive: true, secret });
      expect(moved.body.updatedAt).toBe("2026-04-01T08:02:00.000Z");

      const rotated = await call("POST", `/api/webhooks/${id}/rotate-secret`, { key });
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(rotated.body.secret).not.toBe(secret);

      expect((await call("DELETE", `/api/webhooks/${id}`, { key })).body).toEqual({ success: true });
      expect((await call("GET", "/api/webhooks", { key })).body).toEqual([]);
      expect(await call("DELETE", `/api/webhooks/${id}`, { key })).toMatchObject({
        status: 404,
        body: { error: "Webhook not found" },
      });
    });

    it("answers 404 for another organization's webhook on every route", async () => {
      const owner = await createTenant(target.mailpulse, "Owner");
      const stranger = await createTenant(target.mailpulse, "Stranger");
      const { body } = await call("POST", "/api/webhooks", {
        key: owner.key,
        json: { url: "https://hooks.example.com/in", events: allEvents },
      });
      for (const [method, path, json] of [
        ["PATCH", `/api/webhooks/${body.id}`, { isActive: false }],
        ["DELETE", `/api/webhooks/${body.id}`, undefined],
        ["POST", `/api/webhooks/${body.id}/rotate-secret`, undefined],
        ["POST", `/api/webhooks/${body.id}/test`, undefined],
        ["GET", `/api/webhooks/${body.id}/deliveries`, undefined],
        ["GET", `/api/webhooks/${body.id}/deliveries/1`, undefined],
        ["POST", `/api/webhooks/${body.id}/deliveries/1/retry`, undefined],
        ["PATCH", "/api/webhooks/no-such-webhook", { isActive: false }],
      ] as const) {
        const response = await call(method, path, { key: stranger.key, json });
        expect([method, path, response.status, response.body.error]).toEqual([
          method,
          path,
          404,
          expect.stringMatching(/^(Webhook|Delivery) not found$/),
        ]);
      }
      expect((await call("GET", "/api/webhooks", { key: stranger.key })).body).toEqual([]);
    });

    it("refuses URLs that are not public https:// and events it does not know, naming them", async () => {
      const { key } = await createTenant(target.mailpulse);
      const refused = async (json: unknown) => {
        const response = await call("POST", "/api/webhooks", { key, json });
        expect(response.status).toBe(400);
        return response.body.error as string;
      };
      expect(await refused({ url: "http://hooks.example.com/in", events: allEvents })).toMatch(/https/);
      expect(await refused({ url: "https://user:pw@hooks.example.com/in", events: allEvents })).toMatch(
        /user name or password/,
      );
      expect(await refused({ url: "not a url", events: allEvents })).toMatch(/url/);
      expect(await refused({ url: "https://hooks.example.com/in", events: ["EMAIL_DELIVERED"] })).toContain(
        '"EMAIL_DELIVERED"',
      );
      expect(await refused({ url: "https://hooks.example.com/in", events: [] })).toMatch(/events/);
      expect(await refused({ url: "https://hooks.example.com/in" })).toMatch(/events/);
      for (const url of [
        "https://127.0.0.1/in",
        "https://2130706433/in",
        "https://0177.0.0.1/in",
        "https://0x7f.1/in",
        "https://127.1/in",
        "https://[::1]/in",
        "https://[::ffff:127.0.0.1]/in",
        "https://169.254.169.254/latest",
        "https://localhost/in",
        "https://intranet.example.com/in",
      ]) {
        expect([url, await refused({ url, events: allEvents })]).toEqual([url, expect.stringMatching(/url/)]);
      }
      // A name that does not resolve is caught now rather than failing every delivery later.
      expect(await refused({ url: "https://nowhere.example.com/in", events: allEvents })).toMatch(/resolve/);
      const { body } = await call("POST", "/api/webhooks", {
        key,
        json: { url: "https://hooks.example.com/in", events: allEvents },
      });
      const update = await call("PATCH", `/api/webhooks/${body.id}`, {
        key,
        json: { url: "https://10.0.0.1/" },
      });
      expect(update.status).toBe(400);
      expect((await call("GET", "/api/webhooks", { key })).body[0].url).toBe("https://hooks.example.com/in");
    });

    it("allows at most 20 webhooks per organization", async () => {
      const { key } = await createTenant(target.mailpulse);
      const create = () =>
        call("POST", "/api/webhooks", {
          key,
          json: { url: "https://hooks.example.com/in", events: allEvents },
        });
      for (let n = 0; n < 20; n++) expect((await create()).status).toBe(201);
      const past = await create();
      expect(past.status).toBe(400);
      expect(past.body.error).toMatch(/at most 20 webhooks/);
    });

    it("queues a delivery per event for active subscribers, listed as events in the same shape", async () => {
      const tenant = await createTenant(target.mailpulse);
      const other = await createTenant(target.mailpulse, "Other");
      const webhook = async (events: string[]) =>
        (
          await call("POST", "/api/webhooks", {
            key: tenant.key,
            json: { url: "https://hooks.example.com/in", events },
          })
        ).body.id as string;
      const clicks = await webhook(["EMAIL_CLICKED"]);
      const everything = await webhook(allEvents);
      const paused = await webhook(allEvents);
      await call("PATCH", `/api/webhooks/${paused}`, { key: tenant.key, json: { isActive: false } });
      await call("POST", "/api/webhooks", {
        key: other.key,
        json: { url: "https://hooks.example.com/other", events: allEvents },
      });

      const sent = await call("POST", "/api/send", {
        key: tenant.key,
        json: {
          from: "Acme <news@acme.example>",
          to: ["Bob <bob@example.com>"],
          subject: "Spring",
          htmlContent: '<p><a href="https://example.com/b">b</a></p>',
          campaignId: "Spring",
          metadata: { order: 7 },
          tags: [{ name: "category", value: "promo" }],
        },
      });
      expect(sent.status).toBe(200);
      // A person opens in Thunderbird; a browser follows the link within the same second, which
      // no reader does (docs/measurement.md): each event says so.
      await fetch(sent.body.pixelUrl, { headers: { "user-agent": thunderbird } });
      await fetch(sent.body.links[0].trackingUrl, {
        redirect: "manual",
        headers: { "user-agent": chrome },
      });

      const events = await call("GET", "/api/events", { key: tenant.key });
      expect(events.status).toBe(200);
      expect(events.body.nextCursor).toBeNull();
      expect(events.body.data.map((event: { type: string }) => event.type)).toEqual(allEvents);
      const [sentEvent, opened, clicked] = events.body.data;
      const common = {
        emailTrackingId: sent.body.emailTrackingId,
        from: sent.body.from,
        to: ["Bob <bob@example.com>"],
        subject: "Spring",
        campaign: { id: expect.any(String), name: "Spring" },
        metadata: { order: 7 },
        providerMessageId: sent.body.id,
        tags: [{ name: "category", value: "promo" }],
      };
      expect(sentEvent).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: "EMAIL_SENT",
        createdAt: expect.any(String),
        data: { emailId: expect.any(String), ...common },
      });
      expect(opened.data).toEqual({
        emailId: sentEvent.data.emailId,
        ...common,
        userAgent: thunderbird,
        ip: expect.any(String),
        machine: false,
        source: "human",
        reasons: ["no machine signal"],
      });
      expect(clicked.data).toEqual({
        emailId: sentEvent.data.emailId,
        ...common,
        link: { url: "https://example.com/b", trackingId: sent.body.links[0].trackingId },
        userAgent: chrome,
        ip: expect.any(String),
        machine: true,
        source: "security_scanner",
        reasons: [expect.stringMatching(/^link followed \d+\.\d s after/)],
      });
      // The client address as the default IP setting keeps it: truncated.
      expect(clicked.data.ip).toMatch(/\.0$|::$/);

      const deliveries = async (id: string) =>
        (await call("GET", `/api/webhooks/${id}/deliveries`, { key: tenant.key })).body.data as Array<{
          eventId: string;
          type: string;
          state: string;
          attempts: number;
        }>;
      expect((await deliveries(clicks)).map((d) => [d.type, d.eventId, d.state, d.attempts])).toEqual([
        ["EMAIL_CLICKED", clicked.id, "pending", 0],
      ]);
      // Newest first.
      expect((await deliveries(everything)).map((d) => [d.type, d.eventId])).toEqual([
        ["EMAIL_CLICKED", clicked.id],
        ["EMAIL_OPENED", opened.id],
        ["EMAIL_SENT", sentEvent.id],
      ]);
      expect(await deliveries(paused)).toEqual([]);
      const [delivery] = await deliveries(clicks);
      const detail = await call(
        "GET",
        `/api/webhooks/${clicks}/deliveries/${(delivery as { id?: string }).id}`,
        {
          key: tenant.key,
        },
      );
      expect(detail.body).toMatchObject({ eventId: clicked.id, state: "pending", attemptLog: [] });
      const retry = await call("POST", `/api/webhooks/${clicks}/deliveries/${detail.body.id}/retry`, {
        key: tenant.key,
      });
      expect(retry.status).toBe(409);

      // Filters: by type, by message, after an event id; the other tenant sees only its own.
      const onlyClicks = await call("GET", "/api/events?type=EMAIL_CLICKED,EMAIL_SENT", { key: tenant.key });
      expect(onlyClicks.body.data.map((e: { id: string }) => e.id)).toEqual([sentEvent.id, clicked.id]);
      const afterOpen = await call("GET", `/api/events?after=${opened.id}`, { key: tenant.key });
      expect(afterOpen.body.data.map((e: { id: string }) => e.id)).toEqual([clicked.id]);
      const byMessage = await call("GET", `/api/events?emailTrackingId=${sent.body.emailTrackingId}`, {
        key: tenant.key,
      });
      expect(byMessage.body.data).toHaveLength(3);
      const byTag = await call("GET", "/api/events?tag=category:promo&type=EMAIL_SENT", { key: tenant.key });
      expect(byTag.body.data.map((e: { id: string }) => e.id)).toEqual([sentEvent.id]);
      expect((await call("GET", "/api/events?tag=category:other", { key: tenant.key })).body.data).toEqual(
        [],
      );
      expect((await call("GET", "/api/events", { key: other.key })).body.data).toEqual([]);
      // An id is only a position: another organization's lists none of this one's events.
      expect((await call("GET", `/api/events?after=${opened.id}`, { key: other.key })).body).toEqual({
        data: [],
        nextCursor: null,
      });
    });

    it("pages the event log by event id and refuses bad queries with 400", async () => {
      const { key } = await createTenant(target.mailpulse);
      for (let n = 0; n < 5; n++) {
        await call("POST", "/api/send", {
          key,
          json: { from: "a@acme.example", to: "b@example.com", subject: `S${n}`, htmlContent: "<p>x</p>" },
        });
      }
      const first = await call("GET", "/api/events?limit=2", { key });
      expect(first.body.data).toHaveLength(2);
      expect(first.body.nextCursor).toBe(first.body.data[1].id);
      const second = await call("GET", `/api/events?limit=2&after=${first.body.nextCursor}`, { key });
      const third = await call("GET", `/api/events?limit=2&after=${second.body.nextCursor}`, { key });
      expect(third.body.nextCursor).toBeNull();
      const subjects = [...first.body.data, ...second.body.data, ...third.body.data].map(
        (event: { data: { subject: string } }) => event.data.subject,
      );
      expect(subjects).toEqual(["S0", "S1", "S2", "S3", "S4"]);
      for (const query of [
        "limit=0",
        "limit=1001",
        "limit=x",
        "type=EMAIL_DELIVERED",
        "after=garbage",
        "after=evt_0",
        "tag=nocolon",
      ]) {
        const response = await call("GET", `/api/events?${query}`, { key });
        expect([query, response.status, typeof response.body.error]).toEqual([query, 400, "string"]);
      }
    });
  });
}
