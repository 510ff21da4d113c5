/**
 * What sending adds to the storage port: an email's tags and recipients read back, crash
 * reconciliation (`sending` -> `unknown`, counted once), and idempotency keys (atomic claim,
 * answers, release, expiry, purge).
 */

import { describe, expect, it } from "vitest";
import { contractEmail } from "./outbox-contract.js";
import type { StorageFactory } from "./storage-factory.js";
import { eachCaseWithTwoOrganizations } from "./two-organizations.js";

const at = (iso: string) => new Date(iso);

/** The email records of sending and the idempotency keys, over storages from `createStorage`. */
export function sendRecordsContract(createStorage: StorageFactory): void {
  describe("email details, crash reconciliation and idempotency keys", () => {
    const scope = eachCaseWithTwoOrganizations(createStorage);

    it("reads an email back with its recipients in order and its tags", async () => {
      const email = {
        ...contractEmail(scope.acme, "2026-03-02T09:00:00.000Z"),
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
      await scope.storage.emails.create(email);
      const stored = await scope.storage.emails.get(scope.acme, email.id);
      expect(stored?.recipients.map((recipient) => recipient.display)).toEqual([
        "Bob <Bob@example.com>",
        "ann@example.com",
        "c@example.com",
        "z@example.com",
      ]);
      expect(stored?.tags).toEqual(email.tags);
      expect((await scope.storage.emails.list(scope.acme, 5))[0]?.tags).toEqual(email.tags);
      expect(await scope.storage.emails.get(scope.other, email.id)).toBeUndefined();
    });

    it("marks emails left sending before a time unknown, counts them once, and leaves others alone", async () => {
      const stale = contractEmail(scope.acme, "2026-03-02T09:00:00.000Z");
      const young = contractEmail(scope.other, "2026-03-02T09:30:00.000Z");
      const failed = contractEmail(scope.acme, "2026-03-02T08:00:00.000Z");
      for (const email of [stale, young, failed]) await scope.storage.emails.create(email);
      await scope.storage.emails.markFailed(scope.acme, failed.id, "550");
      expect(await scope.storage.emails.markStaleSendingUnknown(at("2026-03-02T09:15:00.000Z"))).toBe(1);
      expect(await scope.storage.emails.markStaleSendingUnknown(at("2026-03-02T09:15:00.000Z"))).toBe(0);
      expect(await scope.storage.emails.get(scope.acme, stale.id)).toMatchObject({
        status: "unknown",
        sentAt: at("2026-03-02T09:00:00.000Z"),
      });
      expect((await scope.storage.emails.get(scope.other, young.id))?.status).toBe("sending");
      expect((await scope.storage.emails.get(scope.acme, failed.id))?.status).toBe("failed");
      // Counted like a sent email, once: the contact's total.
      expect((await scope.storage.stats.getContact(scope.acme, "bob@example.com"))?.totalEmails).toBe(1);
    });

    it("claims an idempotency key once per organization, stores its answer, releases and expires it", async () => {
      const now = at("2026-03-02T10:00:00.000Z");
      const expiresAt = at("2026-03-03T10:00:00.000Z");
      const claim = { fingerprint: "f1", now, expiresAt };
      const claims = await Promise.all(
        Array.from({ length: 5 }, () => scope.storage.idempotencyKeys.claim(scope.acme, "k", claim)),
      );
      expect(claims.filter((outcome) => outcome.claimed)).toHaveLength(1);
      expect(await scope.storage.idempotencyKeys.claim(scope.other, "k", claim)).toEqual({ claimed: true });
      expect(await scope.storage.idempotencyKeys.get(scope.acme, "k")).toEqual({
        fingerprint: "f1",
        response: undefined,
        createdAt: now,
        expiresAt,
      });
      await scope.storage.idempotencyKeys.complete(scope.acme, "k", { status: 200, body: '{"id":"x"}' });
      expect(
        await scope.storage.idempotencyKeys.claim(scope.acme, "k", { ...claim, fingerprint: "f2" }),
      ).toEqual({
        claimed: false,
        existing: {
          fingerprint: "f1",
          response: { status: 200, body: '{"id":"x"}' },
          createdAt: now,
          expiresAt,
        },
      });
      // Released only while unanswered.
      await scope.storage.idempotencyKeys.release(scope.acme, "k");
      expect((await scope.storage.idempotencyKeys.get(scope.acme, "k"))?.response?.status).toBe(200);
      await scope.storage.idempotencyKeys.release(scope.other, "k");
      expect(await scope.storage.idempotencyKeys.get(scope.other, "k")).toBeUndefined();
      // Expired: claimable again, and purged.
      expect(
        await scope.storage.idempotencyKeys.claim(scope.acme, "k", { ...claim, now: expiresAt }),
      ).toEqual({
        claimed: true,
      });
      await scope.storage.idempotencyKeys.claim(scope.acme, "old", { fingerprint: "f", now, expiresAt: now });
      expect(await scope.storage.idempotencyKeys.purgeExpired(now)).toBe(1);
      expect(await scope.storage.idempotencyKeys.get(scope.acme, "old")).toBeUndefined();
      expect(await scope.storage.idempotencyKeys.get(scope.acme, "k")).toBeDefined();
    });
  });
}
