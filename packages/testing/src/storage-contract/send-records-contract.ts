/**
 * What sending adds to the storage port: an email's tags and recipients read back, crash
 * reconciliation (`sending` -> `unknown`, counted once), and idempotency keys (atomic claim,
 * answers, release, expiry, purge).
 */

import type { Storage } from "@mailpulse/core/storage";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contractEmail } from "./outbox-contract.js";
import type { StorageFactory } from "./storage-factory.js";
import { createTwoOrganizations } from "./two-organizations.js";

const at = (iso: string) => new Date(iso);

/** The email records of sending and the idempotency keys, over storages from `createStorage`. */
export function sendRecordsContract(createStorage: StorageFactory): void {
  describe("email details, crash reconciliation and idempotency keys", () => {
    let storage: Storage;
    let acme: string;
    let other: string;
    beforeEach(async () => {
      storage = await createStorage();
      ({ acme, other } = await createTwoOrganizations(storage));
    });
    afterEach(async () => {
      await storage.close();
    });

    it("reads an email back with its recipients in order and its tags", async () => {
      const email = {
        ...contractEmail(acme, "2026-03-02T09:00:00.000Z"),
        recipients: [
          { kind: "bcc" as const, address: "z@example.com", display: "z@example.com" },
          { kind: "to" as const, address: "bob@example.com", display: "Bob <Bob@example.com>" },
          { kind: "cc" as const, address: "c@example.com", display: "c@example.com" },
          { kind: "to" as const, address: "ann@example.com", display: "ann@example.com" },
        ],
        tags: [
          { name: "kind", value: "receipt" },
          { name: "customer", value: "c-42" },
        ],
      };
      await storage.emails.create(email);
      const stored = await storage.emails.get(acme, email.id);
      expect(stored?.recipients.map((recipient) => recipient.display)).toEqual([
        "Bob <Bob@example.com>",
        "ann@example.com",
        "c@example.com",
        "z@example.com",
      ]);
      expect(stored?.tags).toEqual(email.tags);
      expect((await storage.emails.list(acme, 5))[0]?.tags).toEqual(email.tags);
      expect(await storage.emails.get(other, email.id)).toBeUndefined();
    });

    it("marks emails left sending before a time unknown, counts them once, and leaves others alone", async () => {
      const stale = contractEmail(acme, "2026-03-02T09:00:00.000Z");
      const young = contractEmail(other, "2026-03-02T09:30:00.000Z");
      const failed = contractEmail(acme, "2026-03-02T08:00:00.000Z");
      for (const email of [stale, young, failed]) await storage.emails.create(email);
      await storage.emails.markFailed(acme, failed.id, "550");
      expect(await storage.emails.markStaleSendingUnknown(at("2026-03-02T09:15:00.000Z"))).toBe(1);
      expect(await storage.emails.markStaleSendingUnknown(at("2026-03-02T09:15:00.000Z"))).toBe(0);
      expect(await storage.emails.get(acme, stale.id)).toMatchObject({
        status: "unknown",
        sentAt: at("2026-03-02T09:00:00.000Z"),
      });
      expect((await storage.emails.get(other, young.id))?.status).toBe("sending");
      expect((await storage.emails.get(acme, failed.id))?.status).toBe("failed");
      // Counted like a sent email, once: the contact's total.
      expect((await storage.stats.getContact(acme, "bob@example.com"))?.totalEmails).toBe(1);
    });

    it("claims an idempotency key once per organization, stores its answer, releases and expires it", async () => {
      const now = at("2026-03-02T10:00:00.000Z");
      const expiresAt = at("2026-03-03T10:00:00.000Z");
      const claim = { fingerprint: "f1", now, expiresAt };
      const claims = await Promise.all(
        Array.from({ length: 5 }, () => storage.idempotencyKeys.claim(acme, "k", claim)),
      );
      expect(claims.filter((outcome) => outcome.claimed)).toHaveLength(1);
      expect(await storage.idempotencyKeys.claim(other, "k", claim)).toEqual({ claimed: true });
      expect(await storage.idempotencyKeys.get(acme, "k")).toEqual({
        fingerprint: "f1",
        response: undefined,
        createdAt: now,
        expiresAt,
      });
      await storage.idempotencyKeys.complete(acme, "k", { status: 200, body: '{"id":"x"}' });
      expect(await storage.idempotencyKeys.claim(acme, "k", { ...claim, fingerprint: "f2" })).toEqual({
        claimed: false,
        existing: {
          fingerprint: "f1",
          response: { status: 200, body: '{"id":"x"}' },
          createdAt: now,
          expiresAt,
        },
      });
      // Released only while unanswered.
      await storage.idempotencyKeys.release(acme, "k");
      expect((await storage.idempotencyKeys.get(acme, "k"))?.response?.status).toBe(200);
      await storage.idempotencyKeys.release(other, "k");
      expect(await storage.idempotencyKeys.get(other, "k")).toBeUndefined();
      // Expired: claimable again, and purged.
      expect(await storage.idempotencyKeys.claim(acme, "k", { ...claim, now: expiresAt })).toEqual({
        claimed: true,
      });
      await storage.idempotencyKeys.claim(acme, "old", { fingerprint: "f", now, expiresAt: now });
      expect(await storage.idempotencyKeys.purgeExpired(now)).toBe(1);
      expect(await storage.idempotencyKeys.get(acme, "old")).toBeUndefined();
      expect(await storage.idempotencyKeys.get(acme, "k")).toBeDefined();
    });
  });
}
