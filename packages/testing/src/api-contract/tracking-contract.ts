import { describe, expect, it } from "vitest";
import { noFeedback } from "../reader-figures.js";
import { type ApiTestTarget, createApiClient, createTenant } from "./api-target.js";

const html =
  '<html><body><a href="https://example.com/a?x=1">a</a> <a href="https://example.com/b">b</a> <a href="https://example.com/a?x=1">a again</a></body></html>';

async function sendOne(target: ApiTestTarget, campaignId = "Tracked") {
  const call = createApiClient(target.baseUrl);
  const tenant = await createTenant(target.mailpulse);
  const sent = await call("POST", "/api/send", {
    key: tenant.key,
    json: {
      from: "a@acme.example",
      to: ["Bob@Example.com", "c@example.com"],
      subject: "Tracked",
      htmlContent: html,
      campaignId,
    },
  });
  expect(sent.status).toBe(200);
  const { body: list } = await call("GET", "/api/campaigns", { key: tenant.key });
  const detail = () => call("GET", `/api/campaigns/${list.campaigns[0].id}`, { key: tenant.key });
  return { call, tenant, sent: sent.body, detail };
}

const get = (url: string, init: RequestInit = {}) => fetch(url, { redirect: "manual", ...init });

const thunderbird = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0";
const chrome =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** The public tracking endpoints: pixel, click redirect, HEAD, unknown ids (their webhook events: webhook-contract.ts). */
export function trackingContract(target: () => ApiTestTarget): void {
  describe("tracking endpoints", () => {
    it("serves the pixel uncached and counts the open, a person's apart from a script's", async () => {
      const { sent, detail } = await sendOne(target());
      const response = await get(sent.pixelUrl, { headers: { "user-agent": thunderbird } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/gif");
      expect(response.headers.get("cache-control")).toBe("no-store, no-cache, must-revalidate, private");
      expect(response.headers.get("pragma")).toBe("no-cache");
      expect(response.headers.get("expires")).toBe("0");
      const gif = Buffer.from(await response.arrayBuffer());
      expect(gif.subarray(0, 6).toString("latin1")).toBe("GIF89a");
      expect([gif.readUInt16LE(6), gif.readUInt16LE(8)]).toEqual([1, 1]);
      // Node's fetch says `node`: a script, counted in the raw figures only.
      await get(sent.pixelUrl);
      const { body } = await detail();
      expect(body.stats).toEqual({
        totalEmails: 1,
        totalOpens: 2,
        totalClicks: 0,
        openRate: 100,
        clickRate: 0,
        ...noFeedback,
        human: { totalOpens: 1, totalClicks: 0, openRate: 100, clickRate: 0, noInteraction: 0 },
      });
      expect(body.emails[0]).toMatchObject({ opens: 2, clicks: 0 });
    });

    it("redirects international and control-character URLs to their serialised form, and counts those clicks", async () => {
      const written = [
        "https://例え.jp/",
        "https://example.com/?e=😀",
        "https://example.com/München",
        "https://example.com/価格/€",
        "https://example.com/a&#13;&#10;b?x=%0D%0A&y=&#0;",
      ];
      const serialised = [
        "https://xn--r8jz45g.jp/",
        "https://example.com/?e=%F0%9F%98%80",
        "https://example.com/M%C3%BCnchen",
        "https://example.com/%E4%BE%A1%E6%A0%BC/%E2%82%AC",
        "https://example.com/ab?x=%0D%0A&y=%EF%BF%BD",
      ];
      const call = createApiClient(target().baseUrl);
      const tenant = await createTenant(target().mailpulse);
      const sent = await call("POST", "/api/send", {
        key: tenant.key,
        json: {
          from: "a@acme.example",
          to: "b@example.com",
          subject: "International",
          htmlContent: written.map((url) => `<a href="${url}">x</a>`).join(" "),
          campaignId: "International",
        },
      });
      expect(sent.status).toBe(200);
      expect(sent.body.links.map((link: { originalUrl: string }) => link.originalUrl)).toEqual(serialised);
      for (const [index, link] of sent.body.links.entries()) {
        const response = await get(link.trackingUrl);
        expect(response.status).toBe(302);
        expect(response.headers.get("location")).toBe(serialised[index]);
      }
      const { body: list } = await call("GET", "/api/campaigns", { key: tenant.key });
      const { body } = await call("GET", `/api/campaigns/${list.campaigns[0].id}`, { key: tenant.key });
      expect(body.stats.totalClicks).toBe(written.length);
    });

    it("pages through a campaign's links in URL order, following the Link header", async () => {
      const { call, tenant, sent } = await sendOne(target(), "Paged links");
      await get(sent.links[1].trackingUrl);
      const { body: list } = await call("GET", "/api/campaigns", { key: tenant.key });
      const id = list.campaigns[0].id;
      const first = await call("GET", `/api/campaigns/${id}/links?limit=1`, { key: tenant.key });
      expect(first.status).toBe(200);
      expect(first.body).toEqual([{ url: "https://example.com/a?x=1", clicks: 0 }]);
      const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get("link") ?? "")?.[1];
      expect(next).toMatch(/\/api\/campaigns\/[^/]+\/links\?limit=1&cursor=/);
      const second = await fetch(next!, { headers: { "x-api-key": tenant.key } });
      expect(await second.json()).toEqual([{ url: "https://example.com/b", clicks: 1 }]);
      expect(second.headers.get("link")).toBeNull();
      // The detail's own list is bounded: the store gives the most clicked first, at most `limit`.
      expect(await target().storage.stats.campaignLinks(tenant.organization.id, id, 1)).toEqual([
        { url: "https://example.com/b", clicks: 1 },
      ]);
      const badCursor = await call("GET", `/api/campaigns/${id}/links?cursor=%2F%2F%2F`, { key: tenant.key });
      expect(badCursor.status).toBe(400);
      const unknown = await call("GET", "/api/campaigns/no-such-campaign/links", { key: tenant.key });
      expect(unknown.status).toBe(404);
    });

    it("answers unknown pixel ids with the same GIF and records nothing; HEAD records nothing", async () => {
      const { sent, detail } = await sendOne(target());
      const unknown = await get(sent.pixelUrl.replace(/[^/]+$/, "unknown-id"));
      expect(unknown.status).toBe(200);
      expect(unknown.headers.get("content-type")).toBe("image/gif");
      expect((await unknown.arrayBuffer()).byteLength).toBeGreaterThan(0);
      const head = await get(sent.pixelUrl, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("cache-control")).toBe("no-store, no-cache, must-revalidate, private");
      expect((await detail()).body.stats.totalOpens).toBe(0);
    });

    it("redirects a click to the stored URL only, and counts it per occurrence and per URL", async () => {
      const { sent, detail } = await sendOne(target());
      expect(sent.links).toHaveLength(3);
      const [first, second, third] = sent.links;
      // A browser following every link the moment the message is sent: a scanner, not a person.
      const headers = { "user-agent": chrome };
      const response = await get(`${first.trackingUrl}?url=https://evil.example/`, { headers });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("https://example.com/a?x=1");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      await get(third.trackingUrl, { headers });
      await get(second.trackingUrl, { headers });
      const { body } = await detail();
      // A click proves an open: the email counts as opened though no pixel was loaded.
      expect(body.stats).toEqual({
        totalEmails: 1,
        totalOpens: 0,
        totalClicks: 3,
        openRate: 100,
        clickRate: 100,
        ...noFeedback,
        human: { totalOpens: 0, totalClicks: 0, openRate: 0, clickRate: 0, noInteraction: 1 },
      });
      expect(body.links).toEqual([
        { url: "https://example.com/a?x=1", clicks: 2 },
        { url: "https://example.com/b", clicks: 1 },
      ]);
      expect(body.emails[0]).toMatchObject({ opens: 0, clicks: 3, recipient: "bob@example.com" });
    });

    it("answers an unknown link 404 with an HTML page and no redirect; HEAD on a link records nothing", async () => {
      const { sent, detail } = await sendOne(target());
      const unknown = await get(sent.links[0].trackingUrl.replace(/[^/]+$/, "nope"));
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get("location")).toBeNull();
      expect(unknown.headers.get("content-type")).toContain("text/html");
      expect(await unknown.text()).toContain("not valid");
      const head = await get(sent.links[0].trackingUrl, { method: "HEAD" });
      expect(head.status).toBe(302);
      expect(head.headers.get("location")).toBe("https://example.com/a?x=1");
      expect((await detail()).body.stats.totalClicks).toBe(0);
    });
  });
}
