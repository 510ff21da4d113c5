/**
 * `EmailStore.page` (`GET /api/emails`): newest first by `(createdAt, id)`, paged by a position,
 * every filter (campaign, status, `to` recipient, creation-time range), and one organization's
 * emails never in another's pages.
 */

import type { EmailRecord } from "@mailpulse/core/storage";
import { createResourceId } from "@mailpulse/core/storage";
import { describe, expect, it } from "vitest";
import { contractEmail } from "./outbox-contract.js";
import type { StorageFactory } from "./storage-factory.js";
import { eachCaseWithTwoOrganizations } from "./two-organizations.js";

const subjects = (records: EmailRecord[]) => records.map((record) => record.subject);

/** The email list's paging and filters, over storages from `createStorage`. */
export function emailPageContract(createStorage: StorageFactory): void {
  describe("email pages", () => {
    const scope = eachCaseWithTwoOrganizations(createStorage);

    async function seed() {
      const { storage, acme, other } = scope;
      const campaignId = createResourceId();
      await storage.campaigns.create(
        {
          id: campaignId,
          organizationId: acme,
          name: "Spring",
          createdAt: new Date("2026-03-01T00:00:00.000Z"),
          archivedAt: null,
        },
        {},
      );
      // Two emails in one millisecond: the id breaks the tie, and a page boundary between them
      // must neither repeat nor skip one.
      const e1 = contractEmail(acme, "2026-03-02T09:00:00.000Z", "e1");
      const e2 = { ...contractEmail(acme, "2026-03-03T09:00:00.000Z", "e2"), campaignId };
      const e3 = {
        ...contractEmail(acme, "2026-03-03T09:00:00.000Z", "e3"),
        recipients: [{ kind: "to" as const, address: "cy@example.com", display: "Cy <Cy@example.com>" }],
      };
      const e4 = {
        ...contractEmail(acme, "2026-03-04T09:00:00.000Z", "e4"),
        campaignId,
        // audit@ is only a bcc here: the `to` filter must not find it.
        recipients: [
          { kind: "to" as const, address: "cy@example.com", display: "cy@example.com" },
          { kind: "bcc" as const, address: "audit@acme.example", display: "audit@acme.example" },
        ],
      };
      const foreign = contractEmail(other, "2026-03-05T09:00:00.000Z", "foreign");
      for (const email of [e1, e2, e3, e4, foreign]) await storage.emails.create(email);
      await storage.emails.markFailed(acme, e1.id, "refused");
      await storage.emails.markSent(acme, e4.id, {
        providerMessageId: null,
        sentAt: new Date("2026-03-04T09:00:01.000Z"),
      });
      const [tieFirst, tieSecond] = e2.id > e3.id ? [e2, e3] : [e3, e2];
      return { campaignId, tieFirst, tieSecond };
    }

    it("pages newest first, the id breaking ties, and never shows another organization's emails", async () => {
      const { tieFirst, tieSecond } = await seed();
      const { storage, acme, other } = scope;
      expect(subjects(await storage.emails.page(acme, { limit: 10 }))).toEqual([
        "e4",
        tieFirst.subject,
        tieSecond.subject,
        "e1",
      ]);
      const first = await storage.emails.page(acme, { limit: 2 });
      expect(subjects(first)).toEqual(["e4", tieFirst.subject]);
      const last = first.at(-1) as EmailRecord;
      const second = await storage.emails.page(acme, {
        limit: 2,
        after: { createdAt: last.createdAt, id: last.id },
      });
      expect(subjects(second)).toEqual([tieSecond.subject, "e1"]);
      expect(second[1]?.status).toBe("failed");
      expect(subjects(await storage.emails.page(other, { limit: 10 }))).toEqual(["foreign"]);
    });

    it("filters by campaign, status, to recipient and creation time, together", async () => {
      const { campaignId } = await seed();
      const { storage, acme, other } = scope;
      expect(subjects(await storage.emails.page(acme, { limit: 10, campaignId }))).toEqual(["e4", "e2"]);
      expect(subjects(await storage.emails.page(acme, { limit: 10, status: "failed" }))).toEqual(["e1"]);
      expect(subjects(await storage.emails.page(acme, { limit: 10, status: "sent" }))).toEqual(["e4"]);
      expect(subjects(await storage.emails.page(acme, { limit: 10, to: "cy@example.com" }))).toEqual([
        "e4",
        "e3",
      ]);
      expect(await storage.emails.page(acme, { limit: 10, to: "audit@acme.example" })).toEqual([]);
      expect(
        subjects(
          await storage.emails.page(acme, {
            limit: 10,
            since: new Date("2026-03-03T09:00:00.000Z"),
            until: new Date("2026-03-04T09:00:00.000Z"),
          }),
        ).sort(),
      ).toEqual(["e2", "e3"]);
      expect(
        subjects(
          await storage.emails.page(acme, { limit: 10, campaignId, to: "cy@example.com", status: "sent" }),
        ),
      ).toEqual(["e4"]);
      // Another organization naming this campaign or recipient finds nothing of this one's.
      expect(await storage.emails.page(other, { limit: 10, campaignId })).toEqual([]);
      expect(await storage.emails.page(other, { limit: 10, to: "cy@example.com" })).toEqual([]);
    });
  });
}
