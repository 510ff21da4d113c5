import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Storage, TrackingHit } from "../ports/storage.js";
import { utcDayOf } from "../util/utc-day.js";
import type { StorageFactory } from "./storage-contract.js";
import {
  clickHit,
  type FixtureEmail,
  openHit,
  seededRandom,
  trackingFixtures,
  withWebhook,
} from "./tracking-store-fixtures.js";

const day = (iso: string) => utcDayOf(new Date(iso).getTime());

/**
 * The contract of `TrackingStore.recordEvents`, the batched write path of the tracking endpoints:
 * what a batch adds to every rollup, which hits it skips, when it queues webhook deliveries, and
 * that concurrent batches neither deadlock nor lose counts. `runStorageContractSuite` runs it; a
 * storage can also run it alone.
 */
export function runTrackingStoreContract(name: string, createStorage: StorageFactory): void {
  describe(`tracking store contract: ${name}`, () => {
    let storage: Storage;
    let fixtures: ReturnType<typeof trackingFixtures>;
    beforeEach(async () => {
      storage = await createStorage();
      fixtures = trackingFixtures(storage);
    });
    afterEach(async () => {
      await storage.close();
    });

    const record = (hits: TrackingHit[]) => storage.tracking.recordEvents(hits);
    const email = (id: FixtureEmail, org: string) => storage.emails.get(org, id.id);

    it("records nothing for an empty batch", async () => {
      expect(await record([])).toBe(0);
    });

    it("adds N hits of one email as +N to its counters, its links, its contact and its campaign", async () => {
      const org = await fixtures.organization();
      const campaign = await fixtures.campaign(org);
      const sent = await fixtures.email({
        organizationId: org,
        campaignId: campaign,
        to: ["ann@example.com"],
        links: ["https://example.com/a", "https://example.com/b"],
        sentAt: "2026-03-01T08:00:00.000Z",
      });
      // Out of order on purpose: the latest hit is not the last one in the batch.
      const recorded = await record([
        openHit(sent, "2026-03-01T09:00:00.000Z"),
        clickHit(sent, 0, "2026-03-01T11:00:00.000Z"),
        openHit(sent, "2026-03-01T12:30:00.000Z"),
        clickHit(sent, 1, "2026-03-01T10:00:00.000Z"),
        clickHit(sent, 0, "2026-03-01T09:30:00.000Z"),
        openHit(sent, "2026-03-01T08:30:00.000Z"),
      ]);
      expect(recorded).toBe(6);
      expect(await email(sent, org)).toMatchObject({ openCount: 3, clickCount: 3 });
      expect(await storage.stats.campaignLinks(org, campaign)).toEqual([
        { url: "https://example.com/a", clicks: 2 },
        { url: "https://example.com/b", clicks: 1 },
      ]);
      expect(await storage.stats.campaignTotals(org, campaign)).toEqual({
        totalEmails: 1,
        totalOpens: 3,
        totalClicks: 3,
        openedEmails: 1,
        clickedEmails: 1,
      });
      expect(await storage.stats.getContact(org, "ann@example.com")).toEqual({
        address: "ann@example.com",
        totalEmails: 1,
        totalOpens: 3,
        totalClicks: 3,
        firstSeen: new Date("2026-03-01T08:00:00.000Z"),
        lastActivity: new Date("2026-03-01T12:30:00.000Z"),
      });
      // Every hit is an event of its own, at its own time.
      const timeline = await storage.stats.contactTimeline(org, "ann@example.com", 10);
      expect(timeline.map((entry) => [entry.type, entry.at.toISOString(), entry.link])).toEqual([
        ["opened", "2026-03-01T12:30:00.000Z", null],
        ["clicked", "2026-03-01T11:00:00.000Z", "https://example.com/a"],
        ["clicked", "2026-03-01T10:00:00.000Z", "https://example.com/b"],
        ["clicked", "2026-03-01T09:30:00.000Z", "https://example.com/a"],
        ["opened", "2026-03-01T09:00:00.000Z", null],
        ["opened", "2026-03-01T08:30:00.000Z", null],
        ["sent", "2026-03-01T08:00:00.000Z", null],
      ]);

      // A later batch adds to the counts; an older hit does not move the last activity back.
      expect(await record([openHit(sent, "2026-03-01T10:00:00.000Z")])).toBe(1);
      expect(await email(sent, org)).toMatchObject({ openCount: 4, clickCount: 3 });
      expect(await storage.stats.getContact(org, "ann@example.com")).toMatchObject({
        totalOpens: 4,
        lastActivity: new Date("2026-03-01T12:30:00.000Z"),
      });
    });

    it("counts an email with only clicks as opened and clicked, and one with only opens as opened", async () => {
      const org = await fixtures.organization();
      const campaign = await fixtures.campaign(org);
      const clicked = await fixtures.email({
        organizationId: org,
        campaignId: campaign,
        to: ["a@example.com"],
        links: ["https://example.com/x"],
      });
      const opened = await fixtures.email({
        organizationId: org,
        campaignId: campaign,
        to: ["b@example.com"],
      });
      await fixtures.email({ organizationId: org, campaignId: campaign, to: ["c@example.com"] });
      await record([
        clickHit(clicked, 0, "2026-03-01T09:00:00.000Z"),
        openHit(opened, "2026-03-01T09:00:00.000Z"),
      ]);
      expect(await storage.stats.campaignTotals(org, campaign)).toEqual({
        totalEmails: 3,
        totalOpens: 1,
        totalClicks: 1,
        openedEmails: 2,
        clickedEmails: 1,
      });
    });

    it("skips hits of emails that are not sent, and leaves them out of the count it returns", async () => {
      const org = await fixtures.organization();
      const campaign = await fixtures.campaign(org);
      const webhookCalls = { count: 0 };
      await fixtures.webhook(org, ["EMAIL_OPENED", "EMAIL_CLICKED"]);
      const sent = await fixtures.email({
        organizationId: org,
        campaignId: campaign,
        to: ["ann@example.com"],
      });
      const sending = await fixtures.email({
        organizationId: org,
        campaignId: campaign,
        to: ["bob@example.com"],
        links: ["https://example.com/s"],
        status: "sending",
      });
      const failed = await fixtures.email({
        organizationId: org,
        campaignId: campaign,
        to: ["carol@example.com"],
        links: ["https://example.com/f"],
        status: "failed",
      });
      const missing: FixtureEmail = {
        id: "no-such-email",
        organizationId: org,
        campaignId: campaign,
        linkIds: [],
      };
      const at = "2026-03-01T09:00:00.000Z";
      const recorded = await record(
        [
          openHit(sending, at),
          clickHit(sending, 0, at),
          openHit(sent, at),
          clickHit(failed, 0, at),
          openHit(missing, at),
          openHit(sent, "2026-03-01T09:05:00.000Z"),
        ].map((hit) => withWebhook(hit, webhookCalls)),
      );
      expect(recorded).toBe(2);
      expect(await email(sent, org)).toMatchObject({ openCount: 2 });
      expect(await email(sending, org)).toMatchObject({ status: "sending", openCount: 0 });
      expect(await email(failed, org)).toMatchObject({ status: "failed", clickCount: 0 });
      expect(await storage.stats.campaignTotals(org, campaign)).toMatchObject({
        totalOpens: 2,
        totalClicks: 0,
      });
      expect(await storage.stats.campaignDailyTotals(org, campaign, day(at), day(at))).toEqual([
        { day: day(at), emails: 1, opens: 2, clicks: 0 },
      ]);
      expect(await storage.stats.campaignPeriodTopLinks(org, campaign, range(at, at), 10)).toEqual([]);
      // Only the recorded hits reach the outbox, and only theirs were serialised.
      expect((await storage.webhooks.listDeliveries(org)).length).toBe(2);
      expect(webhookCalls.count).toBe(2);

      // The skipped hit left nothing behind: once sent, the email starts from zero.
      await storage.emails.markSent(org, sending.id, { providerMessageId: "p", sentAt: new Date(at) });
      expect(await email(sending, org)).toMatchObject({ status: "sent", openCount: 0, clickCount: 0 });
      expect(await storage.stats.getContact(org, "bob@example.com")).toMatchObject({
        totalOpens: 0,
        totalClicks: 0,
      });
      expect(await storage.stats.campaignLinks(org, campaign)).toEqual([
        { url: "https://example.com/s", clicks: 0 },
      ]);
      expect(await record([openHit(sending, at), openHit(failed, at)])).toBe(1);
    });

    it("counts each hit once per distinct `to` contact: not twice for a repeated address, never for cc or bcc", async () => {
      const org = await fixtures.organization();
      // Dave is a contact through another email; on this one he is only in cc.
      const toDave = await fixtures.email({ organizationId: org, to: ["dave@example.com"] });
      const shared = await fixtures.email({
        organizationId: org,
        to: ["ann@example.com", "bob@example.com", "ann@example.com"],
        cc: ["dave@example.com"],
        bcc: ["erin@example.com"],
        links: ["https://example.com/s"],
      });
      const toAnn = await fixtures.email({ organizationId: org, to: ["ann@example.com"] });
      const recorded = await record([
        openHit(shared, "2026-03-01T09:00:00.000Z"),
        openHit(shared, "2026-03-01T09:01:00.000Z"),
        clickHit(shared, 0, "2026-03-01T09:02:00.000Z"),
        openHit(toAnn, "2026-03-01T09:03:00.000Z"),
      ]);
      expect(recorded).toBe(4);
      expect(await storage.stats.getContact(org, "ann@example.com")).toMatchObject({
        totalEmails: 2,
        totalOpens: 3,
        totalClicks: 1,
        lastActivity: new Date("2026-03-01T09:03:00.000Z"),
      });
      expect(await storage.stats.getContact(org, "bob@example.com")).toMatchObject({
        totalEmails: 1,
        totalOpens: 2,
        totalClicks: 1,
        lastActivity: new Date("2026-03-01T09:02:00.000Z"),
      });
      expect(await storage.stats.getContact(org, "dave@example.com")).toMatchObject({
        totalEmails: 1,
        totalOpens: 0,
        totalClicks: 0,
      });
      expect(await storage.stats.getContact(org, "erin@example.com")).toBeUndefined();
      expect(await email(toDave, org)).toMatchObject({ openCount: 0 });
    });

    it("never counts a hit for a contact of another organization with the same address", async () => {
      const acme = await fixtures.organization("Acme");
      const beta = await fixtures.organization("Beta");
      const acmeEmail = await fixtures.email({ organizationId: acme, to: ["ann@example.com"] });
      await fixtures.email({ organizationId: beta, to: ["ann@example.com"] });
      await record([openHit(acmeEmail, "2026-03-01T09:00:00.000Z")]);
      expect(await storage.stats.getContact(acme, "ann@example.com")).toMatchObject({ totalOpens: 1 });
      expect(await storage.stats.getContact(beta, "ann@example.com")).toMatchObject({ totalOpens: 0 });
      expect((await storage.stats.organizationTotals(beta)).totalOpens).toBe(0);
    });

    it("adds each hit to the daily rollup of its own UTC day, keeping the day's sent count", async () => {
      const org = await fixtures.organization();
      const campaign = await fixtures.campaign(org);
      const sent = await fixtures.email({
        organizationId: org,
        campaignId: campaign,
        to: ["ann@example.com"],
        links: ["https://example.com/d"],
        sentAt: "2026-03-01T20:00:00.000Z",
      });
      const recorded = await record([
        openHit(sent, "2026-03-01T23:59:59.999Z"),
        openHit(sent, "2026-03-02T00:00:00.000Z"),
        clickHit(sent, 0, "2026-03-02T00:00:00.001Z"),
        openHit(sent, "2026-03-03T12:00:00.000Z"),
      ]);
      expect(recorded).toBe(4);
      await record([openHit(sent, "2026-03-01T21:00:00.000Z")]);
      const first = day("2026-03-01T00:00:00.000Z");
      expect(await storage.stats.campaignDailyTotals(org, campaign, first, first + 5)).toEqual([
        { day: first, emails: 1, opens: 2, clicks: 0 },
        { day: first + 1, emails: 0, opens: 1, clicks: 1 },
        { day: first + 2, emails: 0, opens: 1, clicks: 0 },
      ]);
    });

    it("records clicks by link, with the link on the event, summed per URL across emails", async () => {
      const org = await fixtures.organization();
      const campaign = await fixtures.campaign(org);
      const links = ["https://example.com/shared", "https://example.com/only-first"];
      const first = await fixtures.email({
        organizationId: org,
        campaignId: campaign,
        to: ["a@example.com"],
        links,
      });
      const second = await fixtures.email({
        organizationId: org,
        campaignId: campaign,
        to: ["b@example.com"],
        links: [links[0]!],
      });
      const at = "2026-03-01T09:00:00.000Z";
      await record([
        clickHit(first, 0, at),
        clickHit(second, 0, at),
        clickHit(first, 1, at),
        clickHit(second, 0, at),
      ]);
      const expected = [
        { url: "https://example.com/shared", clicks: 3 },
        { url: "https://example.com/only-first", clicks: 1 },
      ];
      expect(await storage.stats.campaignLinks(org, campaign)).toEqual(expected);
      expect(await storage.stats.campaignPeriodTopLinks(org, campaign, range(at, at), 10)).toEqual(expected);
    });

    it("queues deliveries only for active webhooks of the organization subscribed to the hit's event", async () => {
      const acme = await fixtures.organization("Acme");
      const beta = await fixtures.organization("Beta");
      const clicksOnly = await fixtures.webhook(acme, ["EMAIL_CLICKED"]);
      const everything = await fixtures.webhook(acme, ["EMAIL_SENT", "EMAIL_OPENED", "EMAIL_CLICKED"]);
      await fixtures.webhook(acme, ["EMAIL_OPENED", "EMAIL_CLICKED"], false);
      await fixtures.webhook(beta, ["EMAIL_OPENED", "EMAIL_CLICKED"]);
      const sent = await fixtures.email({
        organizationId: acme,
        to: ["ann@example.com"],
        links: ["https://x.test"],
      });
      const calls = { count: 0 };
      await record([
        withWebhook(openHit(sent, "2026-03-01T09:00:00.000Z"), calls, '{"n":"open"}'),
        withWebhook(clickHit(sent, 0, "2026-03-01T09:01:00.000Z"), calls, '{"n":"click"}'),
        // A hit without a webhook event queues nothing, whoever listens.
        openHit(sent, "2026-03-01T09:02:00.000Z"),
      ]);
      // One payload per hit, however many webhooks receive it.
      expect(calls.count).toBe(2);
      const deliveries = await storage.webhooks.listDeliveries(acme);
      expect(
        deliveries
          .map(({ webhookId, eventType, payload, status, attempts, createdAt }) => ({
            webhookId,
            eventType,
            payload,
            status,
            attempts,
            createdAt: createdAt.toISOString(),
          }))
          .sort((a, b) => (a.payload + a.webhookId < b.payload + b.webhookId ? -1 : 1)),
      ).toEqual(
        [
          { webhookId: clicksOnly, eventType: "EMAIL_CLICKED", payload: '{"n":"click"}' },
          { webhookId: everything, eventType: "EMAIL_CLICKED", payload: '{"n":"click"}' },
          { webhookId: everything, eventType: "EMAIL_OPENED", payload: '{"n":"open"}' },
        ]
          .map((row) => ({
            ...row,
            status: "pending",
            attempts: 0,
            createdAt:
              row.eventType === "EMAIL_OPENED" ? "2026-03-01T09:00:00.000Z" : "2026-03-01T09:01:00.000Z",
          }))
          .sort((a, b) => (a.payload + a.webhookId < b.payload + b.webhookId ? -1 : 1)),
      );
      expect(await storage.webhooks.listDeliveries(beta)).toEqual([]);
    });

    it("never builds a payload when no webhook listens", async () => {
      const org = await fixtures.organization();
      const other = await fixtures.organization("Other");
      await fixtures.webhook(other, ["EMAIL_OPENED"]);
      await fixtures.webhook(org, ["EMAIL_OPENED"], false);
      await fixtures.webhook(org, ["EMAIL_SENT"]);
      const sent = await fixtures.email({ organizationId: org, to: ["ann@example.com"] });
      const calls = { count: 0 };
      const hits = [1, 2, 3].map((n) => withWebhook(openHit(sent, `2026-03-01T09:0${n}:00.000Z`), calls));
      expect(await record(hits)).toBe(3);
      expect(calls.count).toBe(0);
      expect(
        (await storage.webhooks.listDeliveries(org)).filter((d) => d.eventType !== "EMAIL_SENT"),
      ).toEqual([]);
    });

    it("writes all of a batch or nothing of it", async () => {
      const org = await fixtures.organization();
      const campaign = await fixtures.campaign(org);
      await fixtures.webhook(org, ["EMAIL_OPENED"]);
      const sent = await fixtures.email({
        organizationId: org,
        campaignId: campaign,
        to: ["ann@example.com"],
      });
      const at = "2026-03-01T09:00:00.000Z";
      const poisoned: TrackingHit = {
        ...openHit(sent, at),
        webhook: {
          type: "EMAIL_OPENED",
          payload: () => {
            throw new Error("payload failed");
          },
        },
      };
      await expect(record([openHit(sent, at), poisoned])).rejects.toThrow("payload failed");
      expect(await email(sent, org)).toMatchObject({ openCount: 0 });
      expect(await storage.stats.getContact(org, "ann@example.com")).toMatchObject({ totalOpens: 0 });
      expect(await storage.stats.campaignDailyTotals(org, campaign, day(at), day(at))).toEqual([
        { day: day(at), emails: 1, opens: 0, clicks: 0 },
      ]);
      const timeline = await storage.stats.contactTimeline(org, "ann@example.com", 10);
      expect(timeline.map((entry) => entry.type)).toEqual(["sent"]);
      expect(await storage.webhooks.listDeliveries(org)).toEqual([]);
    });

    it("lets concurrent batches over the same emails and contacts all commit, with exact counts", async () => {
      const org = await fixtures.organization();
      const campaign = await fixtures.campaign(org);
      // Six emails to three shared contacts: every batch touches the same rows of every table.
      const contacts = ["ann@example.com", "bob@example.com", "carol@example.com"];
      const emails: FixtureEmail[] = [];
      for (let i = 0; i < 6; i++) {
        emails.push(
          await fixtures.email({
            organizationId: org,
            campaignId: campaign,
            to: i % 2 === 0 ? contacts : [...contacts].reverse(),
            links: ["https://example.com/one", "https://example.com/two"],
            sentAt: "2026-03-01T08:00:00.000Z",
          }),
        );
      }
      await fixtures.webhook(org, ["EMAIL_CLICKED"]);
      const random = seededRandom(7);
      const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
      const days = ["2026-03-01T10:00:00.000Z", "2026-03-02T10:00:00.000Z", "2026-03-03T10:00:00.000Z"];
      const calls = { count: 0 };
      const batches = Array.from({ length: 12 }, () =>
        Array.from({ length: 30 }, () => {
          const target = pick(emails);
          const at = pick(days);
          return random() < 0.5
            ? openHit(target, at)
            : withWebhook(clickHit(target, random() < 0.5 ? 0 : 1, at), calls);
        }),
      );
      const hits = batches.flat();

      const results = await Promise.all(batches.map((batch) => record(batch)));
      expect(results).toEqual(batches.map((batch) => batch.length));

      for (const target of emails) {
        const mine = hits.filter((hit) => hit.event.emailId === target.id);
        expect(await email(target, org)).toMatchObject({
          openCount: mine.filter((hit) => hit.event.type === "open").length,
          clickCount: mine.filter((hit) => hit.event.type === "click").length,
        });
      }
      const opens = hits.filter((hit) => hit.event.type === "open").length;
      const clicks = hits.length - opens;
      for (const address of contacts) {
        expect(await storage.stats.getContact(org, address)).toMatchObject({
          totalOpens: opens,
          totalClicks: clicks,
        });
      }
      expect(await storage.stats.campaignTotals(org, campaign)).toMatchObject({
        totalOpens: opens,
        totalClicks: clicks,
      });
      const daily = await storage.stats.campaignDailyTotals(org, campaign, day(days[0]!), day(days[2]!));
      expect(daily).toEqual(
        days.map((at, index) => {
          const ofDay = hits.filter((hit) => hit.event.occurredAt.toISOString() === at);
          const dayOpens = ofDay.filter((hit) => hit.event.type === "open").length;
          return {
            day: day(at),
            emails: index === 0 ? 6 : 0,
            opens: dayOpens,
            clicks: ofDay.length - dayOpens,
          };
        }),
      );
      const byUrl = (url: string) =>
        hits.filter(
          (hit) =>
            hit.event.linkId !== null &&
            emails.some((e) => e.linkIds[url === "one" ? 0 : 1] === hit.event.linkId),
        ).length;
      expect(await storage.stats.campaignLinks(org, campaign)).toEqual(
        expect.arrayContaining([
          { url: "https://example.com/one", clicks: byUrl("one") },
          { url: "https://example.com/two", clicks: byUrl("two") },
        ]),
      );
      expect((await storage.webhooks.listDeliveries(org)).length).toBe(clicks);
      expect(calls.count).toBeGreaterThanOrEqual(clicks);
    });

    it("records hits while emails to the same contacts are being marked sent, without a deadlock", async () => {
      const org = await fixtures.organization();
      const contacts = ["ann@example.com", "bob@example.com", "carol@example.com", "dave@example.com"];
      const random = seededRandom(11);
      // Each email lists the same contacts in its own order, as real recipient lists do.
      const shuffled = () => [...contacts].sort(() => random() - 0.5);
      const opened = await fixtures.email({ organizationId: org, to: shuffled() });
      const sending: FixtureEmail[] = [];
      for (let i = 0; i < 24; i++) {
        sending.push(await fixtures.email({ organizationId: org, to: shuffled(), status: "sending" }));
      }
      const sentAt = new Date("2026-03-01T08:00:00.000Z");
      const at = "2026-03-01T09:00:00.000Z";
      const work = [
        ...sending.map(
          (target) => () => storage.emails.markSent(org, target.id, { providerMessageId: "p", sentAt }),
        ),
        ...Array.from({ length: 8 }, () => () => record([openHit(opened, at), openHit(opened, at)])),
      ].sort(() => random() - 0.5);
      const outcomes = await Promise.allSettled(work.map((run) => run()));
      expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);
      for (const address of contacts) {
        expect(await storage.stats.getContact(org, address)).toMatchObject({
          totalEmails: 25,
          totalOpens: 16,
        });
      }
    });
  });
}

/** The time range from `start` to `end`, both included. */
function range(start: string, end: string) {
  return { start: new Date(start), end: new Date(end) };
}
