import type { Storage, TrackingHit } from "@mailpulse/core/storage";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readerContact, readerDays, readerTotals } from "./reader-figures.js";
import type { StorageFactory } from "./storage-contract/storage-factory.js";
import { trackingConcurrencyCases } from "./tracking-store-concurrency-cases.js";
import {
  clickHit,
  dayOf,
  deliveriesOf,
  type FixtureEmail,
  newCampaign,
  openHit,
  rangeOf,
  type TrackingContractContext,
  type TrackingFixtures,
  trackingFixtures,
} from "./tracking-store-fixtures.js";
import { trackingOutboxCases } from "./tracking-store-outbox-cases.js";

/**
 * The contract of `TrackingStore.recordEvents`, the batched write path of the tracking endpoints:
 * what a batch adds to every rollup, which hits it skips, when it queues webhook deliveries, and
 * that concurrent batches neither deadlock nor lose counts. `runStorageContractSuite` runs it; a
 * storage can also run it alone.
 */
export function runTrackingStoreContract(name: string, createStorage: StorageFactory): void {
  describe(`tracking store contract: ${name}`, () => {
    const context = {} as TrackingContractContext;
    let storage: Storage;
    let fixtures: TrackingFixtures;
    beforeEach(async () => {
      storage = await createStorage();
      fixtures = trackingFixtures(storage);
      Object.assign(context, { storage, fixtures });
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
      const { org, campaign, addEmail } = await newCampaign(fixtures);
      const sent = await addEmail({
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
      expect(await storage.stats.campaignTotals(org, campaign)).toEqual(
        readerTotals({
          totalEmails: 1,
          totalOpens: 3,
          totalClicks: 3,
          openedEmails: 1,
          clickedEmails: 1,
        }),
      );
      expect(await storage.stats.getContact(org, "ann@example.com")).toEqual(
        readerContact({
          address: "ann@example.com",
          totalEmails: 1,
          totalOpens: 3,
          totalClicks: 3,
          firstSeen: new Date("2026-03-01T08:00:00.000Z"),
          lastActivity: new Date("2026-03-01T12:30:00.000Z"),
        }),
      );
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
      const { org, campaign, addEmail } = await newCampaign(fixtures);
      const clicked = await addEmail({
        to: ["a@example.com"],
        links: ["https://example.com/x"],
      });
      const opened = await addEmail({
        to: ["b@example.com"],
      });
      await addEmail({ to: ["c@example.com"] });
      await record([
        clickHit(clicked, 0, "2026-03-01T09:00:00.000Z"),
        openHit(opened, "2026-03-01T09:00:00.000Z"),
      ]);
      expect(await storage.stats.campaignTotals(org, campaign)).toEqual(
        readerTotals({
          totalEmails: 3,
          totalOpens: 1,
          totalClicks: 1,
          openedEmails: 2,
          clickedEmails: 1,
        }),
      );
    });

    it("skips hits of emails that are not sent, and leaves them out of the count it returns", async () => {
      const { org, campaign, addEmail } = await newCampaign(fixtures);
      await fixtures.webhook(org, ["EMAIL_OPENED", "EMAIL_CLICKED"]);
      const sent = await addEmail({
        to: ["ann@example.com"],
      });
      const sending = await addEmail({
        to: ["bob@example.com"],
        links: ["https://example.com/s"],
        status: "sending",
      });
      const failed = await addEmail({
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
      const recorded = await record([
        openHit(sending, at),
        clickHit(sending, 0, at),
        openHit(sent, at),
        clickHit(failed, 0, at),
        openHit(missing, at),
        openHit(sent, "2026-03-01T09:05:00.000Z"),
      ]);
      expect(recorded).toBe(2);
      expect(await email(sent, org)).toMatchObject({ openCount: 2 });
      expect(await email(sending, org)).toMatchObject({ status: "sending", openCount: 0 });
      expect(await email(failed, org)).toMatchObject({ status: "failed", clickCount: 0 });
      expect(await storage.stats.campaignTotals(org, campaign)).toMatchObject({
        totalOpens: 2,
        totalClicks: 0,
      });
      expect(await storage.stats.campaignDailyTotals(org, campaign, dayOf(at), dayOf(at))).toEqual(
        readerDays([{ day: dayOf(at), emails: 1, opens: 2, clicks: 0 }]),
      );
      expect(await storage.stats.campaignPeriodTopLinks(org, campaign, rangeOf(at, at), 10)).toEqual([]);
      // Only the recorded hits reach the outbox.
      expect((await deliveriesOf(storage, org)).filter((d) => d.eventType !== "EMAIL_SENT").length).toBe(2);

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

    it("skips a hit that names another organization than its email's", async () => {
      const org = await fixtures.organization();
      const other = await fixtures.organization();
      const sent = await fixtures.email({ organizationId: org, to: ["ann@example.com"] });
      const at = "2026-03-01T09:00:00.000Z";
      expect(await record([openHit({ ...sent, organizationId: other }, at)])).toBe(0);
      expect(await email(sent, org)).toMatchObject({ openCount: 0 });
      expect(await storage.stats.getContact(org, "ann@example.com")).toMatchObject({ totalOpens: 0 });
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
      const { org, campaign, addEmail } = await newCampaign(fixtures);
      const sent = await addEmail({
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
      const first = dayOf("2026-03-01T00:00:00.000Z");
      expect(await storage.stats.campaignDailyTotals(org, campaign, first, first + 5)).toEqual(
        readerDays([
          { day: first, emails: 1, opens: 2, clicks: 0 },
          { day: first + 1, emails: 0, opens: 1, clicks: 1 },
          { day: first + 2, emails: 0, opens: 1, clicks: 0 },
        ]),
      );
    });

    it("records clicks by link, with the link on the event, summed per URL across emails", async () => {
      const { org, campaign, addEmail } = await newCampaign(fixtures);
      const links = ["https://example.com/shared", "https://example.com/only-first"];
      const first = await addEmail({
        to: ["a@example.com"],
        links,
      });
      const second = await addEmail({
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
      expect(await storage.stats.campaignPeriodTopLinks(org, campaign, rangeOf(at, at), 10)).toEqual(
        expected,
      );
    });

    trackingOutboxCases(context);
    trackingConcurrencyCases(context);
  });
}
