/**
 * The contact read models of the storage port (`ContactStatsStore`: the list with search and
 * cursor, the contact, its campaigns and its timeline), checked through the contact service
 * over a fully known history.
 */

import type { ContactService } from "@mailpulse/core";
import type { Storage } from "@mailpulse/core/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noContactFeedback } from "../reader-figures.js";
import { contractServices } from "./contract-services.js";
import { historyWriter, knownHistoryClock, seedKnownHistory, urls } from "./known-history.js";
import type { StorageFactory } from "./storage-factory.js";

type History = Awaited<ReturnType<typeof seedKnownHistory>>;

// Every hit of the known history is a reader's (verdict "no machine signal"): the human figures
// equal the raw ones and the timeline's events say `human`. human-stats-contract.ts has machines.
function reader<T extends { totalOpens: number; totalClicks: number; engagementScore: number }>(contact: T) {
  return {
    ...contact,
    humanOpens: contact.totalOpens,
    humanClicks: contact.totalClicks,
    humanEngagementScore: contact.engagementScore,
  };
}
function readerEvents<T extends { type: string }>(timeline: T[]) {
  return timeline.map((entry) =>
    entry.type === "sent" ? entry : { ...entry, machine: false, source: "human" },
  );
}

const ann = reader({
  email: "ann@example.com",
  totalEmails: 5,
  totalOpens: 5,
  totalClicks: 5,
  campaigns: ["Autumn", "Spring"],
  engagementScore: 100,
  lastActivity: "2026-03-10T14:59:59.999Z",
});
const firstLast = reader({
  email: "first_last@example.com",
  totalEmails: 1,
  totalOpens: 0,
  totalClicks: 0,
  campaigns: [],
  engagementScore: 0,
  lastActivity: "2026-03-10T09:00:00.000Z",
});
const erin = reader({
  email: "erin@example.com",
  totalEmails: 1,
  totalOpens: 2,
  totalClicks: 0,
  campaigns: ["Spring"],
  engagementScore: 100,
  lastActivity: "2026-03-01T12:00:00.000Z",
});
// Bob and Carol shared e2: its click counts for both `to` recipients. Equal activity: address descending.
const carol = reader({
  email: "carol@example.com",
  totalEmails: 1,
  totalOpens: 0,
  totalClicks: 1,
  campaigns: ["Spring"],
  engagementScore: 100,
  lastActivity: "2026-02-09T00:00:00.000Z",
});
const bob = { ...carol, email: "bob@example.com" };

/** The contact list and detail over a storage from `createStorage`. */
export function contactsContract(createStorage: StorageFactory): void {
  describe("contacts", () => {
    let storage: Storage;
    let history: History;
    let contacts: ContactService;

    beforeAll(async () => {
      storage = await createStorage();
      history = await seedKnownHistory(storage);
      contacts = contractServices(storage, knownHistoryClock()).contacts;
    });
    afterAll(async () => {
      await storage?.close();
    });

    it("lists the `to` recipients of sent emails, most recent activity first", async () => {
      expect(await contacts.list(history.acme)).toEqual({
        contacts: [ann, firstLast, erin, carol, bob],
        nextCursor: null,
      });
      // Beta's ann is another contact: Acme's counts never include Beta's events, nor the reverse.
      expect(await contacts.list(history.beta)).toEqual({
        contacts: [
          reader({
            email: "ann@example.com",
            totalEmails: 1,
            totalOpens: 3,
            totalClicks: 1,
            campaigns: ["Spring"],
            engagementScore: 100,
            lastActivity: "2026-03-03T11:05:00.000Z",
          }),
        ],
        nextCursor: null,
      });
    });

    it("pages with a cursor without skipping or repeating contacts, ties included", async () => {
      const first = await contacts.list(history.acme, { limit: 2 });
      expect(first.contacts).toEqual([ann, firstLast]);
      expect(first.nextCursor).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]+$/));
      const second = await contacts.list(history.acme, { limit: 2, cursor: first.nextCursor! });
      expect(second.contacts).toEqual([erin, carol]);
      const third = await contacts.list(history.acme, { limit: 2, cursor: second.nextCursor! });
      expect(third).toEqual({ contacts: [bob], nextCursor: null });
      // A page that ends exactly on the last contact has no next page.
      expect((await contacts.list(history.acme, { limit: 5 })).nextCursor).toBeNull();
      await expect(contacts.list(history.acme, { cursor: "not-a-cursor" })).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
      });
    });

    it("searches a case-insensitive, literal substring of the address", async () => {
      const search = async (text: string) =>
        (await contacts.list(history.acme, { search: text })).contacts.map((contact) => contact.email);
      expect(await search("AR")).toEqual(["carol@example.com"]);
      expect(await search("ANN@")).toEqual(["ann@example.com"]);
      expect(await search("example.com")).toHaveLength(5);
      // `_` and `%` are characters here, not LIKE wildcards.
      expect(await search("_")).toEqual(["first_last@example.com"]);
      expect(await search("%")).toEqual([]);
      // `\` is a character too, not the escape of the `_` after it.
      expect(await search("\\")).toEqual([]);
      expect(await search("\\_")).toEqual([]);
      expect(await search("t_l")).toEqual(["first_last@example.com"]);
      expect(await search("dave")).toEqual([]);
      const page = await contacts.list(history.acme, { search: "EXAMPLE", limit: 3 });
      expect(page.contacts.map((contact) => contact.email)).toEqual([ann.email, firstLast.email, erin.email]);
      const rest = await contacts.list(history.acme, {
        search: "EXAMPLE",
        limit: 3,
        cursor: page.nextCursor!,
      });
      expect(rest).toEqual({ contacts: [carol, bob], nextCursor: null });
    });

    it("details a contact with ratios and a newest-first timeline across campaigns", async () => {
      const detail = await contacts.get(history.acme, " ANN@Example.COM ");
      const spring6 = { subject: "Spring 6", campaign: "Spring" };
      expect(detail).toEqual({
        ...ann,
        firstSeen: "2026-01-10T12:00:00.000Z",
        ...noContactFeedback,
        openRate: 1,
        clickRate: 1,
        timeline: readerEvents([
          { type: "sent", timestamp: "2026-03-10T14:59:59.999Z", subject: "Spring 3", campaign: "Spring" },
          { type: "opened", timestamp: "2026-03-09T08:00:00.000Z", subject: "Your receipt" },
          { type: "sent", timestamp: "2026-03-08T12:00:00.000Z", subject: "Your receipt" },
          // Two clicks in the same millisecond: the one recorded last comes first.
          { type: "clicked", timestamp: "2026-03-07T10:00:00.000Z", ...spring6, link: urls.a },
          { type: "clicked", timestamp: "2026-03-07T10:00:00.000Z", ...spring6, link: urls.c },
          { type: "clicked", timestamp: "2026-03-06T09:01:00.000Z", ...spring6, link: urls.c },
          { type: "opened", timestamp: "2026-03-06T09:00:00.000Z", ...spring6 },
          { type: "opened", timestamp: "2026-03-05T09:00:00.000Z", ...spring6 },
          { type: "sent", timestamp: "2026-03-05T08:00:00.000Z", ...spring6 },
          {
            type: "clicked",
            timestamp: "2026-02-20T09:00:00.000Z",
            subject: "Spring 1",
            campaign: "Spring",
            link: urls.a,
          },
          { type: "opened", timestamp: "2026-02-01T11:00:00.000Z", subject: "Spring 1", campaign: "Spring" },
          { type: "sent", timestamp: "2026-02-01T10:00:00.000Z", subject: "Spring 1", campaign: "Spring" },
          {
            type: "clicked",
            timestamp: "2026-01-11T12:05:00.000Z",
            subject: "Autumn sale",
            campaign: "Autumn",
            link: urls.x,
          },
          {
            type: "opened",
            timestamp: "2026-01-11T12:00:00.000Z",
            subject: "Autumn sale",
            campaign: "Autumn",
          },
          { type: "sent", timestamp: "2026-01-10T12:00:00.000Z", subject: "Autumn sale", campaign: "Autumn" },
        ]),
      });
    });

    it("puts an event recorded in the send's millisecond after the send, and rates at zero without events", async () => {
      expect(await contacts.get(history.acme, "bob@example.com")).toEqual({
        ...bob,
        firstSeen: "2026-02-09T00:00:00.000Z",
        ...noContactFeedback,
        openRate: 0,
        clickRate: 1,
        timeline: readerEvents([
          {
            type: "clicked",
            timestamp: "2026-02-09T00:00:00.000Z",
            subject: "Spring 2",
            campaign: "Spring",
            link: urls.a,
          },
          { type: "sent", timestamp: "2026-02-09T00:00:00.000Z", subject: "Spring 2", campaign: "Spring" },
        ]),
      });
      expect(await contacts.get(history.acme, "first_last@example.com")).toEqual({
        ...firstLast,
        firstSeen: "2026-03-10T09:00:00.000Z",
        ...noContactFeedback,
        openRate: 0,
        clickRate: 0,
        timeline: [{ type: "sent", timestamp: "2026-03-10T09:00:00.000Z", subject: "Welcome" }],
      });
      expect(await contacts.get(history.acme, "erin@example.com")).toMatchObject({
        openRate: 2,
        clickRate: 0,
      });
    });

    it("answers NOT_FOUND for cc/bcc-only, failed-only, still-sending and foreign addresses", async () => {
      for (const [organizationId, address] of [
        [history.acme, "dave@example.com"],
        [history.acme, "zed@example.com"],
        [history.acme, "frank@example.com"],
        [history.acme, "gina@example.com"],
        [history.acme, "nobody@example.com"],
        [history.beta, "first_last@example.com"],
      ] as const) {
        await expect(contacts.get(organizationId, address)).rejects.toMatchObject({
          code: "NOT_FOUND",
          message: "Contact not found",
        });
      }
    });

    it("keeps one address's timeline to its own organization when two organizations mail it", async () => {
      const w = historyWriter(storage);
      const mine = await w.organization("Mine");
      const theirs = await w.organization("Theirs");
      const ours = await w.sent({
        organizationId: mine,
        to: ["yan@example.com"],
        subject: "Ours",
        sentAt: "2026-03-10T10:00:00.000Z",
      });
      const other = await w.sent({
        organizationId: theirs,
        to: ["yan@example.com"],
        subject: "Theirs",
        sentAt: "2026-03-10T10:30:00.000Z",
        links: ["https://theirs.example/"],
      });
      await w.open(ours, "2026-03-10T11:00:00.000Z");
      await w.open(other, "2026-03-10T11:30:00.000Z");
      await w.click(other, 0, "2026-03-10T11:31:00.000Z");
      const detail = await contacts.get(mine, "yan@example.com");
      expect(detail.timeline.map((entry) => [entry.type, entry.subject])).toEqual([
        ["opened", "Ours"],
        ["sent", "Ours"],
      ]);
      expect(detail).toMatchObject({ totalEmails: 1, totalOpens: 1, totalClicks: 0 });
    });

    it("counts an address listed twice in one email's `to` once, everywhere", async () => {
      const w = historyWriter(storage);
      const org = await w.organization("Twice");
      const campaignId = await w.campaign(org, "Twice");
      const email = await w.sent({
        organizationId: org,
        campaignId,
        to: ["Zoe@example.com", "zoe@EXAMPLE.com"],
        subject: "Twice",
        sentAt: "2026-03-10T10:00:00.000Z",
      });
      await w.open(email, "2026-03-10T11:00:00.000Z");
      expect(await contacts.get(org, "zoe@example.com")).toEqual({
        humanOpens: 1,
        humanClicks: 0,
        humanEngagementScore: 100,
        email: "zoe@example.com",
        totalEmails: 1,
        totalOpens: 1,
        totalClicks: 0,
        campaigns: ["Twice"],
        engagementScore: 100,
        lastActivity: "2026-03-10T11:00:00.000Z",
        firstSeen: "2026-03-10T10:00:00.000Z",
        ...noContactFeedback,
        openRate: 1,
        clickRate: 0,
        timeline: readerEvents([
          { type: "opened", timestamp: "2026-03-10T11:00:00.000Z", subject: "Twice", campaign: "Twice" },
          { type: "sent", timestamp: "2026-03-10T10:00:00.000Z", subject: "Twice", campaign: "Twice" },
        ]),
      });
      const stats = contractServices(storage, knownHistoryClock()).stats;
      expect((await stats.campaign(org, { campaignId, period: "7d" })).stats).toMatchObject({
        totalEmails: 1,
        uniqueRecipients: 1,
      });
    });

    it("scores engagement as the spec writes it and caps the timeline at 100 entries", async () => {
      const w = historyWriter(storage);
      const bulk = await w.organization("Bulk");
      const minute = (n: number) =>
        new Date(Date.parse("2026-03-01T00:00:00.000Z") + n * 60_000).toISOString();
      let last: Awaited<ReturnType<typeof w.sent>> | undefined;
      for (let n = 0; n < 120; n++) {
        last = await w.sent({
          organizationId: bulk,
          to: ["Bulk.User@Example.com"],
          subject: `Digest ${n}`,
          links: [urls.a],
          sentAt: minute(n),
        });
      }
      await w.open(last!, "2026-03-01T02:00:00.000Z");
      await w.click(last!, 0, "2026-03-01T02:00:30.000Z");

      const detail = await contacts.get(bulk, "bulk.user@example.com");
      // round((1/120 * 60 + 1/120 * 40) * 100) = round(83.33) = 83
      expect(detail).toMatchObject({ totalEmails: 120, totalOpens: 1, totalClicks: 1, engagementScore: 83 });
      expect(detail).toMatchObject({ openRate: 0.0083, clickRate: 0.0083, firstSeen: minute(0) });
      expect(detail.timeline).toHaveLength(100);
      expect(detail.timeline.slice(0, 3)).toEqual(
        readerEvents([
          { type: "clicked", timestamp: "2026-03-01T02:00:30.000Z", subject: "Digest 119", link: urls.a },
          { type: "opened", timestamp: "2026-03-01T02:00:00.000Z", subject: "Digest 119" },
          { type: "sent", timestamp: minute(119), subject: "Digest 119" },
        ]),
      );
      expect(detail.timeline.at(-1)).toEqual({ type: "sent", timestamp: minute(22), subject: "Digest 22" });
    });
  });
}
