/**
 * The campaign read models of the storage port (`StatsStore`: campaign totals, links and emails,
 * period counts, the per-day rollup, the period's top links, organization totals), checked
 * through the services that serve them over a fully known history.
 */

import type { CampaignPeriodStats } from "@mailpulse/core";
import type { Storage } from "@mailpulse/core/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noFeedback, noFeedbackDay } from "../reader-figures.js";
import { contractServices } from "./contract-services.js";
import { knownHistoryClock, seedKnownHistory, urls } from "./known-history.js";
import type { StorageFactory } from "./storage-factory.js";

type History = Awaited<ReturnType<typeof seedKnownHistory>>;
type Day = CampaignPeriodStats["openAndClicks"][number];

/** `count` zero days from `first` (YYYY-MM-DD), with `overrides` by date. */
function days(first: string, count: number, overrides: Record<string, Partial<Day>> = {}): Day[] {
  const start = Date.parse(`${first}T00:00:00.000Z`);
  return Array.from({ length: count }, (_, index) => {
    const date = new Date(start + index * 86_400_000).toISOString().slice(0, 10);
    return readersDay({ date, opens: 0, clicks: 0, emails: 0, ...overrides[date] });
  });
}

// Every hit of the known history is a reader's (its verdicts say "no machine signal"), so its
// human figures equal the raw ones; human-stats-contract.ts has machine hits.
type PeriodNumbers = Omit<CampaignPeriodStats["stats"], "human" | keyof typeof noFeedback>;

/** A day whose hits were all a reader's. */
function readersDay(day: Omit<Day, "humanOpens" | "humanClicks" | keyof typeof noFeedbackDay>): Day {
  return { ...day, ...noFeedbackDay, humanOpens: day.opens, humanClicks: day.clicks };
}

/** Period numbers whose hits were all a reader's. */
function readersPeriod(stats: PeriodNumbers): CampaignPeriodStats["stats"] {
  const { totalOpens, totalClicks, openRate, clickThroughRate, noInteraction } = stats;
  return {
    ...stats,
    ...noFeedback,
    human: { totalOpens, totalClicks, openRate, clickThroughRate, noInteraction },
  };
}

/** Detail or global numbers whose hits were all a reader's (`noInteraction` for the detail). */
function readersTotals<
  T extends { totalOpens: number; totalClicks: number; openRate: number; clickRate: number },
>(stats: T, noInteraction?: number) {
  const { totalOpens, totalClicks, openRate, clickRate } = stats;
  const human = { totalOpens, totalClicks, openRate, clickRate };
  return {
    ...stats,
    ...noFeedback,
    human: noInteraction === undefined ? human : { ...human, noInteraction },
  };
}

/** Campaign detail, period and organization statistics over a storage from `createStorage`. */
export function campaignStatsContract(createStorage: StorageFactory): void {
  describe("campaign statistics", () => {
    let storage: Storage;
    let history: History;
    const clock = knownHistoryClock();
    const services = () => contractServices(storage, clock);
    /** Acme's statistics of `campaign` (default Spring) over `period`. */
    const acmeStats = (period: string, campaign = history.spring) =>
      services().stats.campaign(history.acme, { campaignId: campaign, period });

    beforeAll(async () => {
      storage = await createStorage();
      history = await seedKnownHistory(storage);
    });
    afterAll(async () => {
      await storage?.close();
    });

    it("details a campaign: sent emails only, opened = an open or a click, links most clicked first", async () => {
      const campaigns = services().campaigns;
      const detail = await campaigns.get(history.acme, history.spring);
      expect(detail.stats).toEqual(
        readersTotals({ totalEmails: 5, totalOpens: 5, totalClicks: 5, openRate: 80, clickRate: 60 }, 1),
      );
      // The failed email's and the still-sending email's links are not tracked URLs of the campaign.
      expect(detail.links).toEqual([
        { url: urls.a, clicks: 3 },
        { url: urls.c, clicks: 2 },
        { url: urls.b, clicks: 0 },
      ]);
      const { e1, e2, e3, e4, e6 } = history.emails;
      expect(
        detail.emails.map(({ id, recipient, opens, clicks, createdAt }) => ({
          id,
          recipient,
          opens,
          clicks,
          createdAt,
        })),
      ).toEqual([
        {
          id: e3.id,
          recipient: "ann@example.com",
          opens: 0,
          clicks: 0,
          createdAt: "2026-03-10T14:59:58.999Z",
        },
        {
          id: e6.id,
          recipient: "ann@example.com",
          opens: 2,
          clicks: 3,
          createdAt: "2026-03-05T07:59:59.000Z",
        },
        {
          id: e2.id,
          recipient: "bob@example.com",
          opens: 0,
          clicks: 1,
          createdAt: "2026-02-08T23:59:59.000Z",
        },
        {
          id: e4.id,
          recipient: "erin@example.com",
          opens: 2,
          clicks: 0,
          createdAt: "2026-02-08T23:59:58.999Z",
        },
        {
          id: e1.id,
          recipient: "ann@example.com",
          opens: 1,
          clicks: 1,
          createdAt: "2026-02-01T09:59:59.000Z",
        },
      ]);
    });

    it("counts the default 30d period: emails by send time, events by event time, exact at the edges", async () => {
      const stats = services().stats;
      const result = await stats.campaign(history.acme, { campaignId: history.spring });
      expect(result.campaign).toEqual({
        id: history.spring,
        name: "Spring",
        createdAt: "2026-01-01T00:00:00.000Z",
      });
      expect(result.period).toEqual({ start: "2026-02-09T00:00:00.000Z", end: "2026-03-10T15:00:00.000Z" });
      // e2 (sent at the first instant), e6 and e3 (sent 1 ms before now); e4 (1 ms before the start) is out.
      expect(result.stats).toEqual(
        readersPeriod({
          totalEmails: 3,
          totalOpens: 4,
          totalClicks: 5,
          openRate: 66.67,
          clickThroughRate: 125,
          uniqueRecipients: 3,
          noInteraction: 1,
        }),
      );
      expect(result.openAndClicks).toEqual(
        days("2026-02-09", 30, {
          "2026-02-09": { emails: 1, opens: 1, clicks: 1 },
          "2026-02-20": { clicks: 1 },
          "2026-03-01": { opens: 1 },
          "2026-03-05": { emails: 1, opens: 1 },
          "2026-03-06": { opens: 1, clicks: 1 },
          "2026-03-07": { clicks: 2 },
          "2026-03-10": { emails: 1 },
        }),
      );
      expect(result.topLinks).toEqual([
        { url: urls.a, clicks: 3 },
        { url: urls.c, clicks: 2 },
      ]);
    });

    it("counts the 7d period from 00:00Z six days ago up to now", async () => {
      const result = await acmeStats("7d");
      expect(result.period).toEqual({ start: "2026-03-04T00:00:00.000Z", end: "2026-03-10T15:00:00.000Z" });
      expect(result.stats).toEqual(
        readersPeriod({
          totalEmails: 2,
          totalOpens: 2,
          totalClicks: 3,
          openRate: 50,
          clickThroughRate: 150,
          uniqueRecipients: 1,
          noInteraction: 1,
        }),
      );
      expect(result.openAndClicks.map((day) => day.date)).toEqual([
        "2026-03-04",
        "2026-03-05",
        "2026-03-06",
        "2026-03-07",
        "2026-03-08",
        "2026-03-09",
        "2026-03-10",
      ]);
      expect(result.topLinks).toEqual([
        { url: urls.c, clicks: 2 },
        { url: urls.a, clicks: 1 },
      ]);
    });

    it("covers 90 days for 90d", async () => {
      const result = await acmeStats("90d");
      expect(result.period.start).toBe("2025-12-11T00:00:00.000Z");
      expect(result.openAndClicks).toHaveLength(90);
      expect(result.openAndClicks.at(-1)?.date).toBe("2026-03-10");
      expect(result.stats).toMatchObject({ totalEmails: 5, totalOpens: 5, totalClicks: 5, openRate: 80 });
      expect(result.stats.uniqueRecipients).toBe(4);
    });

    it("counts an inclusive date range to its last millisecond", async () => {
      const result = await acmeStats("2026-02-08,2026-02-09");
      expect(result.period).toEqual({ start: "2026-02-08T00:00:00.000Z", end: "2026-02-09T23:59:59.999Z" });
      expect(result.stats).toEqual(
        readersPeriod({
          totalEmails: 2,
          totalOpens: 1,
          totalClicks: 1,
          openRate: 100,
          clickThroughRate: 100,
          uniqueRecipients: 3,
          noInteraction: 0,
        }),
      );
      expect(result.openAndClicks).toEqual([
        readersDay({ date: "2026-02-08", opens: 0, clicks: 0, emails: 1 }),
        readersDay({ date: "2026-02-09", opens: 1, clicks: 1, emails: 1 }),
      ]);
      expect(result.topLinks).toEqual([{ url: urls.a, clicks: 1 }]);
    });

    it("answers zeros (not NaN) for a period without activity and for a campaign without emails", async () => {
      const quiet = await acmeStats("2026-01-01,2026-01-31");
      const zeros = {
        totalEmails: 0,
        totalOpens: 0,
        totalClicks: 0,
        openRate: 0,
        clickThroughRate: 0,
        uniqueRecipients: 0,
        noInteraction: 0,
      };
      expect(quiet.stats).toEqual(readersPeriod(zeros));
      expect(quiet.openAndClicks).toEqual(days("2026-01-01", 31));
      expect(quiet.topLinks).toEqual([]);
      const empty = await acmeStats("7d", history.empty);
      expect(empty.stats).toEqual(readersPeriod(zeros));
      expect(empty.openAndClicks).toEqual(days("2026-03-04", 7));
    });

    it("keeps archived campaigns readable; cc recipients are not unique recipients", async () => {
      const result = await acmeStats("2026-01-10,2026-01-11", history.autumn);
      expect(result.stats).toEqual(
        readersPeriod({
          totalEmails: 1,
          totalOpens: 1,
          totalClicks: 1,
          openRate: 100,
          clickThroughRate: 100,
          uniqueRecipients: 1,
          noInteraction: 0,
        }),
      );
      expect(result.topLinks).toEqual([{ url: urls.x, clicks: 1 }]);
    });

    it("answers NOT_FOUND for another organization's campaign and VALIDATION_FAILED for a bad period", async () => {
      const stats = services().stats;
      await expect(stats.campaign(history.beta, { campaignId: history.spring })).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "Campaign not found",
      });
      await expect(
        stats.campaign(history.acme, { campaignId: history.spring, period: "14d" }),
      ).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
        message: expect.stringContaining("YYYY-MM-DD,YYYY-MM-DD"),
      });
      const beta = await stats.campaign(history.beta, { campaignId: history.betaSpring, period: "30d" });
      expect(beta.stats).toMatchObject({
        totalEmails: 1,
        totalOpens: 3,
        totalClicks: 1,
        clickThroughRate: 33.33,
      });
    });

    it("totals the organization: every campaign (archived too) and standalone emails, sent only", async () => {
      const stats = services().stats;
      expect(await stats.global(history.acme)).toEqual(
        readersTotals({
          totalEmails: 8,
          totalOpens: 7,
          totalClicks: 6,
          openRate: 75,
          clickRate: 50,
        }),
      );
      expect(await stats.global(history.beta)).toEqual(
        readersTotals({
          totalEmails: 1,
          totalOpens: 3,
          totalClicks: 1,
          openRate: 100,
          clickRate: 100,
        }),
      );
      expect(await stats.global("no-such-organization")).toEqual(
        readersTotals({
          totalEmails: 0,
          totalOpens: 0,
          totalClicks: 0,
          openRate: 0,
          clickRate: 0,
        }),
      );
    });
  });
}
