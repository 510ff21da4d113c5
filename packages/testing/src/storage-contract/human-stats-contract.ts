/**
 * Human figures beside the raw ones (docs/measurement.md): a campaign sent to an Apple Mail
 * reader with Privacy Protection on, a scanned corporate inbox and a Gmail reader. Every figure
 * is derived by hand from the hits below; the raw figures count every hit, the human ones leave
 * out the hits whose verdict is machine, from the same rollups.
 */

import type { HitVerdict } from "@mailpulse/core";
import { noMachineSignal } from "@mailpulse/core";
import type { Storage } from "@mailpulse/core/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noFeedback, noFeedbackDay } from "../reader-figures.js";
import { contractServices } from "./contract-services.js";
import { historyWriter, knownHistoryClock } from "./known-history.js";
import type { StorageFactory } from "./storage-factory.js";

const applePrivacy: HitVerdict = {
  machine: true,
  source: "apple_privacy",
  reasons: ["Apple Mail Privacy Protection proxy address and user agent"],
};
const scanner: HitVerdict = {
  machine: true,
  source: "security_scanner",
  reasons: ["2 different links followed within 0.3 s, all from one address"],
};
const gmailProxy: HitVerdict = {
  machine: false,
  source: "image_proxy",
  reasons: ["Gmail image proxy, fetching the pixel for a reader who opened the message"],
};

/** Human statistics over a storage from `createStorage`. */
export function humanStatsContract(createStorage: StorageFactory): void {
  describe("human figures beside the raw ones", () => {
    let storage: Storage;
    let organization: string;
    let campaign: string;
    const clock = knownHistoryClock(); // 2026-03-10T15:00:00.000Z
    const services = () => contractServices(storage, clock);

    beforeAll(async () => {
      storage = await createStorage();
      const w = historyWriter(storage);
      organization = await w.organization("Measured");
      campaign = await w.campaign(organization, "Launch");
      const links = ["https://shop.test/a", "https://shop.test/b"];
      const email = (to: string) =>
        w.sent({
          organizationId: organization,
          campaignId: campaign,
          to: [to],
          subject: "Launch",
          links,
          sentAt: "2026-03-10T08:00:00.000Z",
        });
      const ann = await email("ann@icloud.example");
      const bob = await email("bob@corp.example");
      const carol = await email("carol@gmail.example");
      // Ann: Apple's prefetch on delivery, then her own click two hours later.
      await w.open(ann, "2026-03-10T08:00:10.000Z", applePrivacy);
      await w.click(ann, 0, "2026-03-10T10:00:00.000Z", noMachineSignal);
      // Bob: his gateway follows both links 20 s after the send; Bob never reads it.
      await w.click(bob, 0, "2026-03-10T08:00:20.000Z", scanner);
      await w.click(bob, 1, "2026-03-10T08:00:20.300Z", scanner);
      // Carol: opens in Gmail an hour later, through Google's image proxy.
      await w.open(carol, "2026-03-10T09:00:00.000Z", gmailProxy);
    });
    afterAll(async () => {
      await storage?.close();
    });

    it("details the campaign with human figures beside the raw ones, which stay as they were", async () => {
      const campaigns = services().campaigns;
      const detail = await campaigns.get(organization, campaign);
      expect(detail.stats).toEqual({
        totalEmails: 3,
        totalOpens: 2,
        totalClicks: 3,
        openRate: 100,
        clickRate: 66.67,
        ...noFeedback,
        human: { totalOpens: 1, totalClicks: 1, openRate: 66.67, clickRate: 33.33, noInteraction: 1 },
      });
      expect(detail.links).toEqual([
        { url: "https://shop.test/a", clicks: 2 },
        { url: "https://shop.test/b", clicks: 1 },
      ]);
    });

    it("reports the period's human figures and each day's human opens and clicks", async () => {
      const result = await services().stats.campaign(organization, {
        campaignId: campaign,
        period: "7d",
      });
      expect(result.stats).toEqual({
        totalEmails: 3,
        totalOpens: 2,
        totalClicks: 3,
        openRate: 100,
        clickThroughRate: 150,
        uniqueRecipients: 3,
        noInteraction: 0,
        ...noFeedback,
        human: { totalOpens: 1, totalClicks: 1, openRate: 66.67, clickThroughRate: 100, noInteraction: 1 },
      });
      expect(result.openAndClicks.at(-1)).toEqual({
        date: "2026-03-10",
        opens: 2,
        clicks: 3,
        emails: 3,
        humanOpens: 1,
        humanClicks: 1,
        ...noFeedbackDay,
      });
      expect(result.openAndClicks.at(-2)).toMatchObject({ humanOpens: 0, humanClicks: 0 });
    });

    it("totals the organization's human figures in the global statistics", async () => {
      expect(await services().stats.global(organization)).toEqual({
        totalEmails: 3,
        totalOpens: 2,
        totalClicks: 3,
        openRate: 100,
        clickRate: 66.67,
        ...noFeedback,
        human: { totalOpens: 1, totalClicks: 1, openRate: 66.67, clickRate: 33.33 },
      });
    });

    it("gives each contact human counts and a human engagement score, and each timeline event its verdict", async () => {
      const contacts = services().contacts;
      const { contacts: list } = await contacts.list(organization);
      const byEmail = new Map(list.map((contact) => [contact.email, contact]));
      expect(byEmail.get("bob@corp.example")).toMatchObject({
        totalClicks: 2,
        engagementScore: 100,
        humanOpens: 0,
        humanClicks: 0,
        humanEngagementScore: 0,
      });
      expect(byEmail.get("carol@gmail.example")).toMatchObject({
        totalOpens: 1,
        humanOpens: 1,
        humanEngagementScore: 100,
      });
      const ann = await contacts.get(organization, "ann@icloud.example");
      expect(ann).toMatchObject({
        totalOpens: 1,
        totalClicks: 1,
        humanOpens: 0,
        humanClicks: 1,
        humanEngagementScore: 100,
      });
      expect(ann.timeline.map(({ type, machine, source }) => ({ type, machine, source }))).toEqual([
        { type: "clicked", machine: false, source: "human" },
        { type: "opened", machine: true, source: "apple_privacy" },
        { type: "sent", machine: undefined, source: undefined },
      ]);
    });

    it("lists each event with its verdict and reasons", async () => {
      const events = await storage.events.list(organization, { limit: 10, types: ["open", "click"] });
      // In the order they were recorded.
      expect(events.map((event) => [event.type, event.verdict])).toEqual([
        ["open", applePrivacy],
        ["click", noMachineSignal],
        ["click", scanner],
        ["click", scanner],
        ["open", gmailProxy],
      ]);
    });
  });
}
