/**
 * The suppression list (docs/deliverability.md): one entry per organization and normalised
 * address, the first reason kept, one lookup for all of a message's recipients, pages in address
 * order with filters, and the `suppressed` email a fully suppressed send leaves.
 */

import type { NewSuppression, Storage } from "@mailpulse/core/storage";
import { describe, expect, it } from "vitest";
import { contractEmail } from "./outbox-contract.js";
import type { StorageFactory } from "./storage-factory.js";
import { eachCaseWithTwoOrganizations } from "./two-organizations.js";

const at = (iso: string) => new Date(iso);

const manual = (address: string): NewSuppression => ({
  address,
  reason: "manual",
  sourceEmailId: null,
  status: null,
  diagnostic: null,
});

/** The suppression store, over storages from `createStorage`. */
export function suppressionContract(createStorage: StorageFactory): void {
  describe("suppression list", () => {
    const scope = eachCaseWithTwoOrganizations(createStorage);

    it("stores addresses normalised, once, keeping the first reason and moving only updatedAt", async () => {
      const bounce: NewSuppression = {
        address: " Ann@Example.COM ",
        reason: "hard_bounce",
        sourceEmailId: "email-1",
        status: "5.1.1",
        diagnostic: "550 5.1.1 <ann@example.com>: Recipient address rejected: User unknown",
      };
      expect(
        await scope.storage.suppressions.add(scope.acme, [bounce], at("2026-03-02T00:00:00.000Z")),
      ).toEqual(["ann@example.com"]);
      expect(
        await scope.storage.suppressions.add(
          scope.acme,
          [manual("ann@example.com"), manual("bob@example.com"), manual("BOB@example.com")],
          at("2026-03-03T00:00:00.000Z"),
        ),
      ).toEqual(["bob@example.com"]);
      const [ann, bob] = await scope.storage.suppressions.list(scope.acme, { limit: 10 });
      expect(ann).toEqual({
        organizationId: scope.acme,
        address: "ann@example.com",
        reason: "hard_bounce",
        sourceEmailId: "email-1",
        status: "5.1.1",
        diagnostic: bounce.diagnostic,
        createdAt: at("2026-03-02T00:00:00.000Z"),
        updatedAt: at("2026-03-03T00:00:00.000Z"),
      });
      expect(bob).toMatchObject({
        address: "bob@example.com",
        reason: "manual",
        createdAt: at("2026-03-03T00:00:00.000Z"),
      });
      // Another organization's list is its own.
      expect(
        await scope.storage.suppressions.add(
          scope.other,
          [manual("ann@example.com")],
          at("2026-03-04T00:00:00.000Z"),
        ),
      ).toEqual(["ann@example.com"]);
      expect(await scope.storage.suppressions.add(scope.acme, [], at("2026-03-04T00:00:00.000Z"))).toEqual(
        [],
      );
    });

    it("finds a message's suppressed recipients in one call, in any case, within the organization", async () => {
      await scope.storage.suppressions.add(
        scope.acme,
        [manual("ann@example.com"), manual("cy@example.com")],
        new Date(),
      );
      await scope.storage.suppressions.add(scope.other, [manual("bob@example.com")], new Date());
      const found = await scope.storage.suppressions.findByAddresses(scope.acme, [
        "ANN@example.com",
        "bob@example.com",
        "cy@example.com",
        "dee@example.com",
      ]);
      expect(found.map((entry) => entry.address).sort()).toEqual(["ann@example.com", "cy@example.com"]);
      expect(await scope.storage.suppressions.findByAddresses(scope.acme, [])).toEqual([]);
    });

    it("pages in address order and filters by reason, exact address and prefix", async () => {
      const addresses = ["eve@b.example", "ann@a.example", "cy@a.example", "bob@a.example", "dan@b.example"];
      await scope.storage.suppressions.add(scope.acme, addresses.map(manual), at("2026-03-02T00:00:00.000Z"));
      await scope.storage.suppressions.add(
        scope.acme,
        [{ ...manual("an_x%@c.example"), reason: "complaint" }],
        at("2026-03-02T00:00:00.000Z"),
      );
      const page = (query: Parameters<Storage["suppressions"]["list"]>[1]) =>
        scope.storage.suppressions.list(scope.acme, query).then((rows) => rows.map((row) => row.address));

      // Pages of the manual entries (letters only: they sort alike in every database collation).
      const manualPage = (query: { limit: number; after?: string }) => page({ ...query, reason: "manual" });
      expect(await manualPage({ limit: 2 })).toEqual(["ann@a.example", "bob@a.example"]);
      expect(await manualPage({ limit: 2, after: "bob@a.example" })).toEqual([
        "cy@a.example",
        "dan@b.example",
      ]);
      expect(await manualPage({ limit: 10, after: "dan@b.example" })).toEqual(["eve@b.example"]);
      expect(await page({ limit: 10 })).toHaveLength(6);
      expect(await page({ limit: 10, reason: "complaint" })).toEqual(["an_x%@c.example"]);
      expect(await page({ limit: 10, address: "BOB@a.example" })).toEqual(["bob@a.example"]);
      expect(await page({ limit: 10, address: "bob@a" })).toEqual([]);
      expect((await page({ limit: 10, addressPrefix: "AN" })).sort()).toEqual([
        "an_x%@c.example",
        "ann@a.example",
      ]);
      // `_` and `%` are characters, not wildcards.
      expect(await page({ limit: 10, addressPrefix: "an_" })).toEqual(["an_x%@c.example"]);
      expect(await page({ limit: 10, addressPrefix: "a%" })).toEqual([]);
      expect(await scope.storage.suppressions.list(scope.other, { limit: 10 })).toEqual([]);
    });

    it("deletes an entry of the organization only", async () => {
      await scope.storage.suppressions.add(scope.acme, [manual("ann@example.com")], new Date());
      expect(await scope.storage.suppressions.delete(scope.other, "ann@example.com")).toBe(false);
      expect(await scope.storage.suppressions.delete(scope.acme, "missing@example.com")).toBe(false);
      expect(await scope.storage.suppressions.delete(scope.acme, "Ann@Example.com")).toBe(true);
      expect(await scope.storage.suppressions.delete(scope.acme, "ann@example.com")).toBe(false);
      expect(await scope.storage.suppressions.findByAddresses(scope.acme, ["ann@example.com"])).toEqual([]);
    });

    it("keeps a fully suppressed email as suppressed, with its dropped recipients, counted nowhere", async () => {
      const email = {
        ...contractEmail(scope.acme, "2026-03-02T09:00:00.000Z"),
        suppressedRecipients: [
          { kind: "to" as const, address: "bob@example.com", reason: "hard_bounce" as const },
          { kind: "to" as const, address: "amy@example.com", reason: "manual" as const },
        ],
      };
      await scope.storage.emails.createSuppressed(email, "every to is suppressed");
      expect(await scope.storage.emails.get(scope.acme, email.id)).toMatchObject({
        status: "suppressed",
        failureReason: "every to is suppressed",
        sentAt: null,
        suppressedRecipients: email.suppressedRecipients,
      });
      expect((await scope.storage.emails.get(scope.acme, email.id))?.recipients).toHaveLength(3);
      // Not `sending`: reconciliation leaves it, and no statistic counts it.
      expect(await scope.storage.emails.markStaleSendingUnknown(at("2026-04-01T00:00:00.000Z"))).toBe(0);
      expect(
        await scope.storage.emails.markSent(scope.acme, email.id, {
          providerMessageId: "p",
          sentAt: new Date(),
        }),
      ).toBe(false);
      expect(await scope.storage.stats.listContacts(scope.acme, { limit: 10 })).toEqual([]);
      expect((await scope.storage.stats.organizationTotals(scope.acme)).totalEmails).toBe(0);
      expect(await scope.storage.stats.contactTimeline(scope.acme, "bob@example.com", 10)).toEqual([]);
    });

    it("stores the recipients a send dropped beside a sent email, and none by default", async () => {
      const dropped = { ...contractEmail(scope.acme, "2026-03-02T09:00:00.000Z") };
      dropped.suppressedRecipients = [{ kind: "bcc", address: "x@example.com", reason: "complaint" }];
      await scope.storage.emails.create(dropped);
      const plain = contractEmail(scope.acme, "2026-03-02T09:00:00.000Z");
      await scope.storage.emails.create(plain);
      expect((await scope.storage.emails.get(scope.acme, dropped.id))?.suppressedRecipients).toEqual(
        dropped.suppressedRecipients,
      );
      expect((await scope.storage.emails.get(scope.acme, plain.id))?.suppressedRecipients).toEqual([]);
    });
  });
}
