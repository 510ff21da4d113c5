import { noMachineSignal } from "@mailpulse/core";
import type { Storage } from "@mailpulse/core/storage";
import { createResourceId } from "@mailpulse/core/storage";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readerTotals } from "./reader-figures.js";
import { campaignRenameContract } from "./storage-contract/campaign-rename-contract.js";
import { campaignStatsContract } from "./storage-contract/campaign-stats-contract.js";
import { contactsContract } from "./storage-contract/contacts-contract.js";
import { deliveryFeedbackContract } from "./storage-contract/delivery-feedback-contract.js";
import { emailPageContract } from "./storage-contract/email-page-contract.js";
import { humanStatsContract } from "./storage-contract/human-stats-contract.js";
import { inboundMessageContract } from "./storage-contract/inbound-message-contract.js";
import { outboxContract } from "./storage-contract/outbox-contract.js";
import { sendRecordsContract } from "./storage-contract/send-records-contract.js";
import { sendingDomainContract } from "./storage-contract/sending-domain-contract.js";
import type { StorageFactory } from "./storage-contract/storage-factory.js";
import { suppressionContract } from "./storage-contract/suppression-contract.js";
import { verdictStoreContract } from "./storage-contract/verdict-store-contract.js";
import { runTrackingStoreContract } from "./tracking-store-contract.js";

export type { StorageFactory } from "./storage-contract/storage-factory.js";

const at = (iso: string) => new Date(iso);

/**
 * The storage contract: what every `Storage` implementation must do, as vitest tests, covering
 * the whole port: every store and method, the statistics and contact read models over a known
 * history, and the webhook outbox. Run it against your own storage:
 * `runStorageContractSuite("my storage", async () => ...)`; the factory is called for each test
 * (and once per read-model group, which seeds its history once).
 */
export function runStorageContractSuite(name: string, createStorage: StorageFactory): void {
  describe(`storage contract: ${name}`, () => {
    campaignStatsContract(createStorage);
    contactsContract(createStorage);
    humanStatsContract(createStorage);
    verdictStoreContract(createStorage);
    outboxContract(createStorage);
    sendingDomainContract(createStorage);
    sendRecordsContract(createStorage);
    emailPageContract(createStorage);
    campaignRenameContract(createStorage);
    suppressionContract(createStorage);
    deliveryFeedbackContract(createStorage);
    inboundMessageContract(createStorage);
  });

  describe(`storage contract: ${name}`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await createStorage();
    });
    afterEach(async () => {
      await storage.close();
    });

    let organizationsCreated = 0;
    async function organization(orgName = "Acme") {
      // Distinct creation times: ids made in one millisecond do not sort in creation order.
      const createdAt = new Date(at("2026-01-01T00:00:00.000Z").getTime() + 1000 * organizationsCreated++);
      const org = { id: createResourceId(), name: orgName, createdAt };
      await storage.organizations.create(org);
      return org;
    }

    it("migrates idempotently", async () => {
      await storage.migrate();
      await storage.migrate();
      expect(await storage.organizations.list()).toEqual([]);
    });

    it("stores organizations and reads them back with exact times", async () => {
      const org = await organization();
      expect(await storage.organizations.get(org.id)).toEqual(org);
      expect(await storage.organizations.get("missing")).toBeUndefined();
      const second = await organization("Beta");
      expect((await storage.organizations.list()).map((o) => o.name)).toEqual(["Acme", "Beta"]);
      expect(second.createdAt.toISOString()).toBe("2026-01-01T00:00:01.000Z");
    });

    it("finds active API keys by hash only, and not once revoked", async () => {
      const org = await organization();
      const record = {
        id: createResourceId(),
        organizationId: org.id,
        name: "ci",
        prefix: "mp_abcdef",
        createdAt: at("2026-01-02T00:00:00.000Z"),
        revokedAt: null,
      };
      await storage.apiKeys.create(record, "hash-1");
      expect(await storage.apiKeys.findActiveByHash("hash-1")).toEqual({
        id: record.id,
        organizationId: org.id,
      });
      expect(await storage.apiKeys.findActiveByHash("hash-2")).toBeUndefined();
      expect(await storage.apiKeys.revoke(org.id, record.id, at("2026-01-03T00:00:00.000Z"))).toBe(true);
      expect(await storage.apiKeys.revoke(org.id, record.id, at("2026-01-04T00:00:00.000Z"))).toBe(true);
      expect(await storage.apiKeys.revoke(org.id, "missing", at("2026-01-04T00:00:00.000Z"))).toBe(false);
      expect(await storage.apiKeys.revoke("other-org", record.id, at("2026-01-04T00:00:00.000Z"))).toBe(
        false,
      );
      expect(await storage.apiKeys.findActiveByHash("hash-1")).toBeUndefined();
      const [listed] = await storage.apiKeys.list(org.id);
      expect(listed?.revokedAt?.toISOString()).toBe("2026-01-03T00:00:00.000Z");
    });

    it("keeps campaign names unique per organization and enforces the active-campaign limit", async () => {
      const acme = await organization("Acme");
      const beta = await organization("Beta");
      const campaign = (
        organizationId: string,
        campaignName: string,
        createdAt = "2026-01-05T00:00:00.000Z",
      ) => ({
        id: createResourceId(),
        organizationId,
        name: campaignName,
        createdAt: at(createdAt),
        archivedAt: null,
      });
      const first = campaign(acme.id, "Launch");
      expect(await storage.campaigns.create(first, {})).toBe("created");
      expect(await storage.campaigns.create(campaign(acme.id, "Launch"), {})).toBe("name_taken");
      expect(await storage.campaigns.create(campaign(beta.id, "Launch"), {})).toBe("created");
      expect(await storage.campaigns.create(campaign(acme.id, "Second"), { maxActive: 1 })).toBe(
        "limit_reached",
      );

      expect(await storage.campaigns.archive(acme.id, first.id, at("2026-01-06T00:00:00.000Z"))).toBe(true);
      expect(await storage.campaigns.archive(acme.id, first.id, at("2026-01-07T00:00:00.000Z"))).toBe(false);
      expect(await storage.campaigns.archive(beta.id, first.id, at("2026-01-07T00:00:00.000Z"))).toBe(false);
      // Archived campaigns free their slot but keep their name.
      expect(await storage.campaigns.create(campaign(acme.id, "Launch"), { maxActive: 1 })).toBe(
        "name_taken",
      );
      const second = campaign(acme.id, "Second", "2026-01-08T00:00:00.000Z");
      expect(await storage.campaigns.create(second, { maxActive: 1 })).toBe("created");

      expect((await storage.campaigns.listActive(acme.id)).map((c) => c.name)).toEqual(["Second"]);
      expect((await storage.campaigns.get(acme.id, first.id))?.archivedAt?.toISOString()).toBe(
        "2026-01-06T00:00:00.000Z",
      );
      expect(await storage.campaigns.get(beta.id, first.id)).toBeUndefined();
      expect((await storage.campaigns.findByName(acme.id, "Second"))?.id).toBe(second.id);
      expect(await storage.campaigns.findByName(beta.id, "Second")).toBeUndefined();
    });

    it("does not pass the campaign limit under concurrent creations", async () => {
      const org = await organization();
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          storage.campaigns.create(
            {
              id: createResourceId(),
              organizationId: org.id,
              name: `C${index}`,
              createdAt: new Date(),
              archivedAt: null,
            },
            { maxActive: 2 },
          ),
        ),
      );
      expect(outcomes.filter((outcome) => outcome === "created")).toHaveLength(2);
      expect(await storage.campaigns.listActive(org.id)).toHaveLength(2);
    });

    it("reports zero statistics for a campaign without emails", async () => {
      const org = await organization();
      const id = createResourceId();
      await storage.campaigns.create(
        { id, organizationId: org.id, name: "Empty", createdAt: new Date(), archivedAt: null },
        {},
      );
      expect(await storage.stats.campaignTotals(org.id, id)).toEqual(
        readerTotals({
          totalEmails: 0,
          totalOpens: 0,
          totalClicks: 0,
          openedEmails: 0,
          clickedEmails: 0,
        }),
      );
      expect(await storage.stats.campaignLinks(org.id, id)).toEqual([]);
      expect(await storage.stats.campaignEmails(org.id, id, 10)).toEqual([]);
    });

    it("stores an email with recipients and links, counts it once sent, and counts events only then", async () => {
      const org = await organization();
      const email = {
        id: createResourceId(),
        organizationId: org.id,
        campaignId: null,
        trackingId: `t-${createResourceId()}`,
        origin: "send" as const,
        fromAddress: "a@acme.example",
        sender: "a@send.platform.test",
        replyTo: "a@acme.example",
        subject: "Hello",
        metadata: '{"k":1}',
        trackOpens: true,
        trackClicks: true,
        recipients: [
          { kind: "to" as const, address: "bob@example.com", display: "Bob <Bob@Example.com>" },
          { kind: "cc" as const, address: "cc@example.com", display: "cc@example.com" },
        ],
        links: [{ id: `l-${createResourceId()}`, url: "https://example.com/a?x=1&y=2" }],
        createdAt: at("2026-03-01T10:00:00.000Z"),
      };
      await storage.emails.create(email);
      const open = {
        type: "open" as const,
        organizationId: org.id,
        emailId: email.id,
        campaignId: null,
        linkId: null,
        occurredAt: at("2026-03-01T11:00:00.000Z"),
        ip: "203.0.113.0",
        userAgent: "UA",
        method: "GET" as const,
        msSinceSent: null,
        verdict: noMachineSignal,
      };
      // Still `sending`: an event is not counted.
      await storage.tracking.recordEvents([{ event: open }]);
      expect((await storage.emails.get(org.id, email.id))?.openCount).toBe(0);

      const sentAt = at("2026-03-01T10:00:01.000Z");
      expect(await storage.emails.markSent(org.id, email.id, { providerMessageId: "p-1", sentAt })).toBe(
        true,
      );
      expect(await storage.emails.markSent(org.id, email.id, { providerMessageId: "p-2", sentAt })).toBe(
        false,
      );
      await storage.tracking.recordEvents([{ event: open }]);
      await storage.tracking.recordEvents([
        {
          event: {
            ...open,
            type: "click",
            linkId: email.links[0]!.id,
            occurredAt: at("2026-03-01T12:00:00.000Z"),
          },
        },
      ]);
      expect(await storage.emails.get(org.id, email.id)).toMatchObject({
        status: "sent",
        providerMessageId: "p-1",
        sentAt,
        openCount: 1,
        clickCount: 1,
        metadata: '{"k":1}',
      });
      expect(await storage.emails.get("other-org", email.id)).toBeUndefined();
      expect(await storage.tracking.findEmails([email.trackingId, "missing"])).toEqual([
        expect.objectContaining({
          id: email.id,
          organizationId: org.id,
          status: "sent",
          recipient: "bob@example.com",
        }),
      ]);
      expect(await storage.tracking.findEmails([])).toEqual([]);
      const links = await storage.tracking.findLinks(["missing", ...email.links.map((link) => link.id)]);
      expect(links.map((link) => link.url).sort()).toEqual(email.links.map((link) => link.url).sort());
      expect(links[0]).toMatchObject({ email: { id: email.id } });
      expect(await storage.tracking.findLinks(["missing"])).toEqual([]);
    });

    it("keeps failed emails out of every count", async () => {
      const org = await organization();
      const campaignId = createResourceId();
      await storage.campaigns.create(
        { id: campaignId, organizationId: org.id, name: "C", createdAt: new Date(), archivedAt: null },
        {},
      );
      const id = createResourceId();
      await storage.emails.create({
        id,
        organizationId: org.id,
        campaignId,
        trackingId: `t-${id}`,
        origin: "send",
        fromAddress: "a@acme.example",
        sender: "a@acme.example",
        replyTo: null,
        subject: "S",
        metadata: null,
        trackOpens: true,
        trackClicks: true,
        recipients: [{ kind: "to", address: "x@example.com", display: "x@example.com" }],
        links: [],
        createdAt: new Date(),
      });
      await storage.emails.markFailed(org.id, id, "550 no such user");
      await storage.tracking.recordEvents([
        {
          event: {
            type: "open",
            organizationId: org.id,
            emailId: id,
            campaignId,
            linkId: null,
            occurredAt: new Date(),
            ip: null,
            userAgent: null,
            method: "GET",
            msSinceSent: null,
            verdict: noMachineSignal,
          },
        },
      ]);
      expect(await storage.emails.get(org.id, id)).toMatchObject({
        status: "failed",
        failureReason: "550 no such user",
        openCount: 0,
      });
      expect((await storage.stats.campaignTotals(org.id, campaignId)).totalEmails).toBe(0);
    });

    it("gives each custom tracking domain to one organization, resetting verification when it changes", async () => {
      const acme = await organization("Acme");
      const beta = await organization("Beta");
      expect(await storage.organizations.getCustomDomain(acme.id)).toBeUndefined();
      expect(await storage.organizations.setCustomDomain(acme.id, "track.acme.example")).toBe(true);
      expect(await storage.organizations.setCustomDomain(beta.id, "track.acme.example")).toBe(false);
      await storage.organizations.markCustomDomainVerified(acme.id, at("2026-04-01T00:00:00.000Z"));
      expect(await storage.organizations.getCustomDomain(acme.id)).toEqual({
        domain: "track.acme.example",
        verifiedAt: at("2026-04-01T00:00:00.000Z"),
      });
      await storage.organizations.setCustomDomain(acme.id, "t2.acme.example");
      expect((await storage.organizations.getCustomDomain(acme.id))?.verifiedAt).toBeNull();
      await storage.organizations.setCustomDomain(acme.id, null);
      expect(await storage.organizations.getCustomDomain(acme.id)).toBeUndefined();
    });
  });
  runTrackingStoreContract(name, createStorage);
}
