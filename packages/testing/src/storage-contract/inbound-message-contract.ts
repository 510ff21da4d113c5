/**
 * What the inbound SMTP receiver reads and writes (docs/deliverability.md): the inbound log
 * (appended, listed newest first per organization, purged by age and by count), the email a
 * complaint names by its Message-ID, and the organization that verified a return-path domain.
 */

import type { NewInboundMessage } from "@mailpulse/core/storage";
import { createResourceId } from "@mailpulse/core/storage";
import { describe, expect, it } from "vitest";
import { contractEmail } from "./outbox-contract.js";
import type { StorageFactory } from "./storage-factory.js";
import { eachCaseWithTwoOrganizations } from "./two-organizations.js";

const at = (iso: string) => new Date(iso);

function logRow(organizationId: string | null, receivedAt: string, subject: string): NewInboundMessage {
  return {
    organizationId,
    emailId: null,
    receivedAt: at(receivedAt),
    envelopeFrom: "",
    envelopeTo: ["bounces+abc@send.acme.example"],
    kind: "bounce",
    summary: "bounce: A message/delivery-status part (RFC 3464) naming 1 recipient(s).",
    subject,
    messageId: `<${subject}@mx.example>`,
  };
}

/** The inbound log and the receiver's lookups, over storages from `createStorage`. */
export function inboundMessageContract(createStorage: StorageFactory): void {
  describe("inbound log and return-path lookups", () => {
    const scope = eachCaseWithTwoOrganizations(createStorage);

    it("lists an organization's inbound messages newest first, paged and filtered, never another's", async () => {
      const { storage, acme, other } = scope;
      const first = await storage.inboundMessages.add(logRow(acme, "2026-03-02T00:00:00.000Z", "one"));
      const second = await storage.inboundMessages.add({
        ...logRow(acme, "2026-03-02T00:01:00.000Z", "two"),
        kind: "complaint",
        emailId: "email-1",
        envelopeFrom: "fbl@example.net",
        envelopeTo: ["abuse@send.acme.example", "fbl@send.acme.example"],
      });
      await storage.inboundMessages.add(logRow(other, "2026-03-02T00:02:00.000Z", "other"));
      await storage.inboundMessages.add(logRow(null, "2026-03-02T00:03:00.000Z", "nobody's"));
      const third = await storage.inboundMessages.add(logRow(acme, "2026-03-02T00:04:00.000Z", "three"));
      expect(first).toBeLessThan(second);
      expect(second).toBeLessThan(third);

      const page = await storage.inboundMessages.list(acme, { limit: 2 });
      expect(page.map((row) => row.subject)).toEqual(["three", "two"]);
      expect(page[1]).toEqual({
        id: second,
        organizationId: acme,
        emailId: "email-1",
        receivedAt: at("2026-03-02T00:01:00.000Z"),
        envelopeFrom: "fbl@example.net",
        envelopeTo: ["abuse@send.acme.example", "fbl@send.acme.example"],
        kind: "complaint",
        summary: "bounce: A message/delivery-status part (RFC 3464) naming 1 recipient(s).",
        subject: "two",
        messageId: "<two@mx.example>",
      });
      expect(
        (await storage.inboundMessages.list(acme, { limit: 2, before: second })).map((row) => row.subject),
      ).toEqual(["one"]);
      expect(
        (await storage.inboundMessages.list(acme, { limit: 10, kind: "complaint" })).map((row) => row.id),
      ).toEqual([second]);
      expect((await storage.inboundMessages.list(other, { limit: 10 })).map((row) => row.subject)).toEqual([
        "other",
      ]);
    });

    it("purges rows older than the cutoff and beyond the newest kept, across organizations", async () => {
      const { storage, acme, other } = scope;
      await storage.inboundMessages.add(logRow(acme, "2026-01-01T00:00:00.000Z", "old"));
      for (const [index, org] of [acme, other, null, acme].entries()) {
        await storage.inboundMessages.add(logRow(org, `2026-03-0${index + 1}T00:00:00.000Z`, `new-${index}`));
      }
      const cutoff = { receivedBefore: at("2026-02-01T00:00:00.000Z") };
      expect(await storage.inboundMessages.purge({ ...cutoff, keepNewest: 1000 })).toBe(1);
      expect(await storage.inboundMessages.purge({ ...cutoff, keepNewest: 2 })).toBe(2);
      expect((await storage.inboundMessages.list(acme, { limit: 10 })).map((row) => row.subject)).toEqual([
        "new-3",
      ]);
      expect(await storage.inboundMessages.list(other, { limit: 10 })).toEqual([]);
      expect(await storage.inboundMessages.purge({ ...cutoff, keepNewest: 2 })).toBe(0);
      expect(await storage.inboundMessages.purge({ ...cutoff, keepNewest: 0 })).toBe(2);
    });

    it("finds the email with a provider message id across organizations, and nothing when none or two have it", async () => {
      const { storage, acme, other } = scope;
      const sent = contractEmail(acme, "2026-03-02T00:00:00.000Z");
      await storage.emails.create(sent);
      await storage.emails.markSent(acme, sent.id, {
        providerMessageId: "abc-1@send.acme.example",
        sentAt: at("2026-03-02T00:00:01.000Z"),
      });
      expect(await storage.emails.findByProviderMessageId("abc-1@send.acme.example")).toEqual({
        organizationId: acme,
        emailId: sent.id,
      });
      expect(await storage.emails.findByProviderMessageId("ABC-1@send.acme.example")).toBeUndefined();
      expect(await storage.emails.findByProviderMessageId("")).toBeUndefined();
      const twin = contractEmail(other, "2026-03-02T00:00:00.000Z");
      await storage.emails.create(twin);
      await storage.emails.markSent(other, twin.id, {
        providerMessageId: "abc-1@send.acme.example",
        sentAt: at("2026-03-02T00:00:01.000Z"),
      });
      expect(await storage.emails.findByProviderMessageId("abc-1@send.acme.example")).toBeUndefined();
    });

    it("names the organization that verified a domain, and none for a pending or unknown one", async () => {
      const { storage, acme, other } = scope;
      const domain = (organizationId: string, name: string, status: "verified" | "pending") => ({
        id: createResourceId(),
        organizationId,
        domain: name,
        status,
        records: "[]",
        dkimSelector: "mp",
        dkimPrivateKey: "key",
        dkimPublicKey: "public",
        createdAt: at("2026-03-01T00:00:00.000Z"),
        verifiedAt: status === "verified" ? at("2026-03-01T00:00:00.000Z") : null,
        lastCheckedAt: null,
        failedChecks: 0,
      });
      await storage.sendingDomains.create(domain(acme, "acme.example", "verified"));
      await storage.sendingDomains.create(domain(other, "acme.example", "pending"));
      await storage.sendingDomains.create(domain(other, "pending.example", "pending"));
      expect(await storage.sendingDomains.findVerifiedOwner("acme.example")).toBe(acme);
      expect(await storage.sendingDomains.findVerifiedOwner("pending.example")).toBeUndefined();
      expect(await storage.sendingDomains.findVerifiedOwner("unknown.example")).toBeUndefined();
    });
  });
}
