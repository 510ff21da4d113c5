/**
 * The verdict store (`ports/storage-verdicts.ts`): reading one email's hits, walking the emails
 * with hits, and revising verdicts with the human rollups moving along, checked through the
 * statistics services that read those rollups.
 */

import { type HitVerdict, noMachineSignal } from "@mailpulse/core";
import type { Storage } from "@mailpulse/core/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractServices } from "./contract-services.js";
import { historyWriter, knownHistoryClock, type SeededEmail } from "./known-history.js";
import type { StorageFactory } from "./storage-factory.js";

const scanner: HitVerdict = { machine: true, source: "security_scanner", reasons: ["a test scanner"] };

/** The verdict store over a storage from `createStorage`. */
export function verdictStoreContract(createStorage: StorageFactory): void {
  describe("stored verdicts", () => {
    let storage: Storage;
    let organization: string;
    let campaign: string;
    let email: SeededEmail;
    const services = () => contractServices(storage, knownHistoryClock(), { campaignDetailEmailLimit: 10 });
    const human = async () => {
      const campaigns = services().campaigns;
      const detail = await campaigns.get(organization, campaign);
      const period = await services().stats.campaign(organization, {
        campaignId: campaign,
        period: "7d",
      });
      const contact = await services().contacts.get(organization, "ann@example.com");
      return {
        detail: detail.stats.human,
        day: period.openAndClicks.find((day) => day.date === "2026-03-10"),
        contact: { humanOpens: contact.humanOpens, humanClicks: contact.humanClicks },
      };
    };

    beforeAll(async () => {
      storage = await createStorage();
      const w = historyWriter(storage);
      organization = await w.organization("Verdicts");
      campaign = await w.campaign(organization, "Verdicts");
      email = await w.sent({
        organizationId: organization,
        campaignId: campaign,
        to: ["ann@example.com"],
        subject: "V",
        links: ["https://shop.test/a", "https://shop.test/b"],
        sentAt: "2026-03-10T08:00:00.000Z",
      });
      await w.open(email, "2026-03-10T08:00:05.000Z", noMachineSignal);
      await w.click(email, 0, "2026-03-10T08:00:06.000Z", noMachineSignal);
      await w.click(email, 1, "2026-03-10T09:00:00.000Z", noMachineSignal);
    });
    afterAll(async () => {
      await storage?.close();
    });

    it("reads an email's hits oldest first, with the time since the send", async () => {
      const hits = await storage.verdicts.hitsOfEmail(organization, email.id);
      expect(
        hits.map(({ type, msSinceSent, linkId, verdict }) => ({ type, msSinceSent, linkId, verdict })),
      ).toEqual([
        { type: "open", msSinceSent: 5_000, linkId: null, verdict: noMachineSignal },
        { type: "click", msSinceSent: 6_000, linkId: email.linkIds[0], verdict: noMachineSignal },
        { type: "click", msSinceSent: 3_600_000, linkId: email.linkIds[1], verdict: noMachineSignal },
      ]);
      expect(await storage.verdicts.hitsOfEmail("another-organization", email.id)).toEqual([]);
      expect(await storage.verdicts.emailsWithHits(organization, undefined, 10)).toEqual([
        { organizationId: organization, emailId: email.id },
      ]);
      expect(
        await storage.verdicts.emailsWithHits(
          organization,
          { organizationId: organization, emailId: email.id },
          10,
        ),
      ).toEqual([]);
    });

    it("moves a hit between the human rollups when its verdict flips, and back", async () => {
      expect(await human()).toEqual({
        detail: { totalOpens: 1, totalClicks: 2, openRate: 100, clickRate: 100, noInteraction: 0 },
        day: expect.objectContaining({ opens: 1, clicks: 2, humanOpens: 1, humanClicks: 2 }),
        contact: { humanOpens: 1, humanClicks: 2 },
      });
      const [open, first, second] = await storage.verdicts.hitsOfEmail(organization, email.id);
      const toMachine = [open!, first!, second!].map((hit) => ({ eventId: hit.eventId, verdict: scanner }));
      expect(await storage.verdicts.reviseVerdicts(organization, email.id, toMachine)).toBe(3);
      expect(await human()).toEqual({
        detail: { totalOpens: 0, totalClicks: 0, openRate: 0, clickRate: 0, noInteraction: 1 },
        day: expect.objectContaining({ opens: 1, clicks: 2, humanOpens: 0, humanClicks: 0 }),
        contact: { humanOpens: 0, humanClicks: 0 },
      });
      // Back to a person for the last click only: it alone makes the email opened and clicked.
      const back = [{ eventId: second!.eventId, verdict: noMachineSignal }];
      expect(await storage.verdicts.reviseVerdicts(organization, email.id, back)).toBe(1);
      expect((await human()).detail).toEqual({
        totalOpens: 0,
        totalClicks: 1,
        openRate: 100,
        clickRate: 100,
        noInteraction: 0,
      });
      // New reasons without a flip: stored, no count moves; another email's event is ignored.
      const reworded = { ...scanner, reasons: ["reworded"] };
      expect(
        await storage.verdicts.reviseVerdicts(organization, email.id, [
          { eventId: open!.eventId, verdict: reworded },
        ]),
      ).toBe(0);
      expect((await storage.verdicts.hitsOfEmail(organization, email.id))[0]!.verdict).toEqual(reworded);
      expect(
        await storage.verdicts.reviseVerdicts(organization, "another-email", [
          { eventId: open!.eventId, verdict: noMachineSignal },
        ]),
      ).toBe(0);
    });

    it("re-classifies history with the current rules: these hits had no user agent, so bots", async () => {
      const measurement = services().measurement;
      const summary = await measurement.reclassifyHistory(organization);
      expect(summary).toEqual({ emails: 1, hits: 3, changed: 3, flipped: 1 });
      expect(
        (await storage.verdicts.hitsOfEmail(organization, email.id)).map((hit) => hit.verdict.source),
      ).toEqual(["bot", "bot", "bot"]);
      expect((await human()).detail).toEqual({
        totalOpens: 0,
        totalClicks: 0,
        openRate: 0,
        clickRate: 0,
        noInteraction: 1,
      });
      // Judged again with nothing new: nothing changes.
      expect(await measurement.reclassifyHistory(organization)).toEqual({
        emails: 1,
        hits: 3,
        changed: 0,
        flipped: 0,
      });
    });
  });
}
