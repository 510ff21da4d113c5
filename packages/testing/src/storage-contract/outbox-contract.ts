/**
 * Webhooks, the outbox and the event log: webhooks as stored (with the per-organization limit),
 * the EMAIL_SENT event a sent email logs and queues in the transaction that marks it sent (the
 * tracking-store contract checks the hits' events), claiming with leases, recording attempts,
 * requeueing, purging, and paging over the event log.
 */

import type { ClaimedDelivery, NewEmailRecord, Storage, WebhookRecord } from "@mailpulse/core/storage";
import { createResourceId } from "@mailpulse/core/storage";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deliveriesOf } from "../tracking-store-fixtures.js";
import type { StorageFactory } from "./storage-factory.js";

const at = (iso: string) => new Date(iso);

/** An email of `organizationId` with one `to` recipient, not yet sent. */
export function contractEmail(organizationId: string, createdAt: string, subject = "Hello"): NewEmailRecord {
  const id = createResourceId();
  return {
    id,
    organizationId,
    campaignId: null,
    trackingId: `t-${id}`,
    origin: "send",
    fromAddress: "news@acme.example",
    sender: "News <news@acme.example>",
    replyTo: null,
    subject,
    metadata: '{"order":42}',
    trackOpens: true,
    trackClicks: true,
    recipients: [
      { kind: "to", address: "bob@example.com", display: "Bob <bob@example.com>" },
      { kind: "to", address: "amy@example.com", display: "amy@example.com" },
      { kind: "bcc", address: "audit@acme.example", display: "audit@acme.example" },
    ],
    links: [],
    createdAt: at(createdAt),
  };
}

/** Webhooks, the outbox they are fed from, the event log, and the email list. */
export function outboxContract(createStorage: StorageFactory): void {
  describe("webhooks, outbox, event log and emails", () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await createStorage();
    });
    afterEach(async () => {
      await storage.close();
    });

    async function organization(name: string, createdAt = "2026-01-01T00:00:00.000Z") {
      const org = { id: createResourceId(), name, createdAt: at(createdAt) };
      await storage.organizations.create(org);
      return org.id;
    }

    function webhook(
      organizationId: string,
      events: WebhookRecord["events"],
      createdAt: string,
      isActive = true,
    ): WebhookRecord {
      return {
        id: createResourceId(),
        organizationId,
        url: `https://hooks.example/${createdAt}`,
        events,
        secret: `whsec_${createdAt}`,
        previousSecret: null,
        previousSecretExpiresAt: null,
        isActive,
        failingSince: null,
        createdAt: at(createdAt),
        updatedAt: at(createdAt),
      };
    }

    /** A sent email of the organization; resolves with its id. */
    async function sentEmail(organizationId: string, sentAt: string): Promise<string> {
      const email = contractEmail(organizationId, sentAt);
      await storage.emails.create(email);
      await storage.emails.markSent(organizationId, email.id, {
        providerMessageId: `p-${email.id}`,
        sentAt: at(sentAt),
        logSentEvent: true,
      });
      return email.id;
    }

    it("stores webhooks, lists an organization's oldest first, finds, updates and deletes them", async () => {
      const acme = await organization("Acme");
      const beta = await organization("Beta");
      const second = webhook(acme, ["EMAIL_CLICKED"], "2026-01-03T00:00:00.000Z", false);
      const first = webhook(acme, ["EMAIL_SENT", "EMAIL_OPENED"], "2026-01-02T00:00:00.000Z");
      expect(await storage.webhooks.create(second, 20)).toBe(true);
      expect(await storage.webhooks.create(first, 20)).toBe(true);
      await storage.webhooks.create(webhook(beta, ["EMAIL_SENT"], "2026-01-01T00:00:00.000Z"), 20);
      expect(await storage.webhooks.list(acme)).toEqual([first, second]);
      expect(await storage.webhooks.list("no-such-organization")).toEqual([]);
      expect(await storage.webhooks.find(acme, first.id)).toEqual(first);
      expect(await storage.webhooks.find(beta, first.id)).toBeUndefined();

      const expires = at("2026-01-05T00:00:00.000Z");
      const updated = await storage.webhooks.update(acme, first.id, {
        events: ["EMAIL_CLICKED"],
        secret: "new",
        previousSecret: first.secret,
        previousSecretExpiresAt: expires,
        updatedAt: at("2026-01-04T00:00:00.000Z"),
      });
      expect(updated).toEqual({
        ...first,
        events: ["EMAIL_CLICKED"],
        secret: "new",
        previousSecret: first.secret,
        previousSecretExpiresAt: expires,
        updatedAt: at("2026-01-04T00:00:00.000Z"),
      });
      expect(await storage.webhooks.update(beta, first.id, { isActive: false, updatedAt: expires })).toBe(
        undefined,
      );
      expect(await storage.webhooks.findForDelivery([first.id, second.id])).toHaveLength(2);
      expect(await storage.webhooks.delete(beta, first.id)).toBe(false);
      expect(await storage.webhooks.delete(acme, first.id)).toBe(true);
      expect(await storage.webhooks.list(acme)).toEqual([second]);
    });

    it("refuses a webhook past the organization's limit, even when created concurrently", async () => {
      const acme = await organization("Acme");
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, n) =>
          storage.webhooks.create(webhook(acme, ["EMAIL_SENT"], `2026-01-0${n + 1}T00:00:00.000Z`), 4),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(4);
      expect(await storage.webhooks.list(acme)).toHaveLength(4);
    });

    it("logs EMAIL_SENT and queues one delivery per active webhook subscribed to it, when marked sent", async () => {
      const acme = await organization("Acme");
      const beta = await organization("Beta");
      const subscribed = webhook(acme, ["EMAIL_SENT", "EMAIL_OPENED"], "2026-01-02T00:00:00.000Z");
      const alsoSubscribed = webhook(acme, ["EMAIL_SENT"], "2026-01-02T00:00:01.000Z");
      for (const target of [
        subscribed,
        alsoSubscribed,
        webhook(acme, ["EMAIL_CLICKED"], "2026-01-03T00:00:00.000Z"),
        webhook(acme, ["EMAIL_SENT"], "2026-01-04T00:00:00.000Z", false),
        webhook(beta, ["EMAIL_SENT"], "2026-01-05T00:00:00.000Z"),
      ]) {
        await storage.webhooks.create(target, 20);
      }

      const email = contractEmail(acme, "2026-03-01T10:00:00.000Z");
      await storage.emails.create(email);
      // Queued with the fact, never before it: a `sending` email has no event nor delivery yet.
      expect(await deliveriesOf(storage, acme)).toEqual([]);
      expect(await storage.events.list(acme, { limit: 10 })).toEqual([]);

      const sentAt = at("2026-03-01T10:00:01.000Z");
      const mark = { providerMessageId: "p-1", sentAt, logSentEvent: true };
      expect(await storage.emails.markSent(acme, email.id, mark)).toBe(true);
      // Marking it again changes nothing and queues nothing.
      expect(await storage.emails.markSent(acme, email.id, mark)).toBe(false);

      const [event, ...more] = await storage.events.list(acme, { limit: 10 });
      expect(more).toEqual([]);
      expect(event).toEqual({
        id: expect.any(Number),
        organizationId: acme,
        type: "sent",
        occurredAt: sentAt,
        email: {
          id: email.id,
          trackingId: email.trackingId,
          from: "News <news@acme.example>",
          to: ["Bob <bob@example.com>", "amy@example.com"],
          subject: "Hello",
          metadata: '{"order":42}',
          providerMessageId: "p-1",
          tags: [],
        },
        campaign: null,
        link: null,
        ip: null,
        userAgent: null,
        verdict: null,
        details: null,
      });
      const deliveries = await deliveriesOf(storage, acme);
      expect(
        deliveries.map(({ webhookId, eventId, eventType, status, attempts, createdAt }) => ({
          webhookId,
          eventId,
          eventType,
          status,
          attempts,
          createdAt,
        })),
      ).toEqual(
        [subscribed, alsoSubscribed].map((target) => ({
          webhookId: target.id,
          eventId: event?.id,
          eventType: "EMAIL_SENT",
          status: "pending",
          attempts: 0,
          createdAt: sentAt,
        })),
      );
      expect(await deliveriesOf(storage, beta)).toEqual([]);
    });

    it("logs no event for emails stored as sent without it (registered) nor for failed ones", async () => {
      const acme = await organization("Acme");
      await storage.webhooks.create(webhook(acme, ["EMAIL_SENT"], "2026-01-02T00:00:00.000Z"), 20);
      const sentAt = at("2026-03-02T09:00:00.000Z");
      await storage.emails.create(contractEmail(acme, "2026-03-02T09:00:00.000Z"), {
        providerMessageId: null,
        sentAt,
      });
      const failed = contractEmail(acme, "2026-03-02T10:00:00.000Z");
      await storage.emails.create(failed);
      await storage.emails.markFailed(acme, failed.id, "550 refused");
      expect(
        await storage.emails.markSent(acme, failed.id, {
          providerMessageId: "p",
          sentAt,
          logSentEvent: true,
        }),
      ).toBe(false);
      expect(await deliveriesOf(storage, acme)).toEqual([]);
      expect(await storage.events.list(acme, { limit: 10 })).toEqual([]);
    });

    it("claims due deliveries once, records attempts under the lease, and requeues failed ones", async () => {
      const acme = await organization("Acme");
      const target = webhook(acme, ["EMAIL_SENT"], "2026-01-02T00:00:00.000Z");
      await storage.webhooks.create(target, 20);
      await sentEmail(acme, "2026-03-01T10:00:00.000Z");
      await sentEmail(acme, "2026-03-01T10:00:01.000Z");
      const now = at("2026-03-01T10:00:05.000Z");

      // Not due before its time.
      expect(
        await storage.deliveries.claimDue(at("2026-03-01T09:00:00.000Z"), { limit: 10, leaseMs: 60_000 }),
      ).toEqual([]);
      const claimed = await storage.deliveries.claimDue(now, { limit: 10, leaseMs: 60_000 });
      expect(claimed.map((c) => c.attempt)).toEqual([1, 1]);
      // Leased: nobody else gets them until the lease expires.
      expect(await storage.deliveries.claimDue(now, { limit: 10, leaseMs: 60_000 })).toEqual([]);
      const [first, second] = claimed as [ClaimedDelivery, ClaimedDelivery];

      const attempt = { attemptedAt: now, status: 500, durationMs: 12, error: null, responseExcerpt: "oops" };
      const retryAt = at("2026-03-01T10:00:10.000Z");
      expect(
        await storage.deliveries.recordAttempt({
          delivery: first,
          attempt,
          next: { state: "failed", retryAt },
          webhook: { failingSince: now, deactivate: false },
        }),
      ).toBe(true);
      expect(
        await storage.deliveries.recordAttempt({
          delivery: second,
          attempt: { ...attempt, status: 204, responseExcerpt: null },
          next: { state: "delivered" },
          webhook: { failingSince: null, deactivate: false },
        }),
      ).toBe(true);
      expect(await storage.deliveries.find(acme, target.id, first.id)).toEqual({
        delivery: expect.objectContaining({
          status: "failed",
          attempts: 1,
          lastStatus: 500,
          nextAttemptAt: retryAt,
          lastAttemptAt: now,
        }),
        attempts: [attempt],
      });
      expect((await storage.deliveries.find(acme, target.id, second.id))?.delivery).toMatchObject({
        status: "delivered",
        nextAttemptAt: null,
        deliveredAt: now,
      });
      expect(await storage.deliveries.find("no-such-organization", target.id, first.id)).toBeUndefined();

      // Due again at its retry time, as attempt 2.
      expect(await storage.deliveries.claimDue(now, { limit: 10, leaseMs: 60_000 })).toEqual([]);
      const [again] = await storage.deliveries.claimDue(retryAt, { limit: 10, leaseMs: 60_000 });
      expect(again).toMatchObject({ id: first.id, attempt: 2 });
      // The first claim's lease is gone: its late outcome is refused.
      expect(
        await storage.deliveries.recordAttempt({
          delivery: first,
          attempt,
          next: { state: "delivered" },
          webhook: { failingSince: null, deactivate: false },
        }),
      ).toBe(false);
      await storage.deliveries.recordAttempt({
        delivery: again as ClaimedDelivery,
        attempt,
        next: { state: "dead" },
        webhook: { failingSince: now, deactivate: true },
      });
      expect((await storage.webhooks.find(acme, target.id))?.isActive).toBe(false);
      expect((await storage.webhooks.find(acme, target.id))?.failingSince).toEqual(now);

      // Retried by hand: pending again, from attempt 1; a delivered one is not requeued.
      const requeued = await storage.deliveries.requeue(acme, target.id, first.id, retryAt);
      expect(requeued).toMatchObject({ requeued: true, delivery: { status: "pending", attempts: 0 } });
      expect(await storage.deliveries.requeue(acme, target.id, second.id, retryAt)).toMatchObject({
        requeued: false,
        delivery: { status: "delivered" },
      });
      expect(await storage.deliveries.requeue("other", target.id, first.id, retryAt)).toBeUndefined();
      // Deliveries of an inactive webhook wait until it is active again.
      expect(await storage.deliveries.claimDue(retryAt, { limit: 10, leaseMs: 60_000 })).toEqual([]);
      await storage.webhooks.update(acme, target.id, { isActive: true, updatedAt: retryAt });
      expect(await storage.deliveries.claimDue(retryAt, { limit: 10, leaseMs: 60_000 })).toHaveLength(1);
    });

    it("claims fairly across webhooks, within each webhook's cap of rows leased at once", async () => {
      const busy = await organization("Busy");
      const quiet = await organization("Quiet");
      const busyHook = webhook(busy, ["EMAIL_SENT"], "2026-01-02T00:00:00.000Z");
      const quietHook = webhook(quiet, ["EMAIL_SENT"], "2026-01-03T00:00:00.000Z");
      await storage.webhooks.create(busyHook, 20);
      await storage.webhooks.create(quietHook, 20);
      // Six of Busy's deliveries are due before Quiet's one.
      for (let second = 0; second < 6; second += 1) {
        await sentEmail(busy, `2026-03-01T10:00:0${second}.000Z`);
      }
      await sentEmail(quiet, "2026-03-01T10:00:07.000Z");
      const now = at("2026-03-01T10:00:10.000Z");
      const lease = { leaseMs: 60_000 };

      // Each webhook's first row comes before any webhook's second: Quiet is not left behind.
      const firstClaim = await storage.deliveries.claimDue(now, { limit: 2, ...lease, maxPerWebhook: 3 });
      expect(firstClaim.map((c) => c.webhookId).sort()).toEqual([busyHook.id, quietHook.id].sort());
      // Busy has one row leased: two more reach its cap of three, whatever the limit.
      const secondClaim = await storage.deliveries.claimDue(now, { limit: 10, ...lease, maxPerWebhook: 3 });
      expect(secondClaim.map((c) => c.webhookId)).toEqual([busyHook.id, busyHook.id]);
      expect(await storage.deliveries.claimDue(now, { limit: 10, ...lease, maxPerWebhook: 3 })).toEqual([]);
      // A finished attempt frees a slot.
      const attempt = { attemptedAt: now, status: 200, durationMs: 5, error: null, responseExcerpt: null };
      const busyFirst = firstClaim.find((c) => c.webhookId === busyHook.id) as ClaimedDelivery;
      await storage.deliveries.recordAttempt({
        delivery: busyFirst,
        attempt,
        next: { state: "delivered" },
        webhook: { failingSince: null, deactivate: false },
      });
      const thirdClaim = await storage.deliveries.claimDue(now, { limit: 10, ...lease, maxPerWebhook: 3 });
      expect(thirdClaim.map((c) => c.webhookId)).toEqual([busyHook.id]);
      // Without a cap, the rest of the backlog is claimed.
      expect(await storage.deliveries.claimDue(now, { limit: 10, ...lease })).toHaveLength(2);
    });

    it("claims rows of an expired lease again, gives back released ones, and purges finished ones", async () => {
      const acme = await organization("Acme");
      const target = webhook(acme, ["EMAIL_SENT"], "2026-01-02T00:00:00.000Z");
      await storage.webhooks.create(target, 20);
      await sentEmail(acme, "2026-03-01T10:00:00.000Z");
      const now = at("2026-03-01T10:00:05.000Z");
      const [claimed] = await storage.deliveries.claimDue(now, { limit: 10, leaseMs: 1000 });
      // A crashed worker: its lease runs out and the row is claimed again, as the next attempt.
      const later = new Date(now.getTime() + 1000);
      const [reclaimed] = await storage.deliveries.claimDue(later, { limit: 10, leaseMs: 1000 });
      expect(reclaimed).toMatchObject({ id: claimed?.id, attempt: 2 });
      // A stopping worker gives its claim back: due at once, the attempt not counted.
      await storage.deliveries.releaseLeases([reclaimed as ClaimedDelivery]);
      const [released] = await storage.deliveries.claimDue(later, { limit: 10, leaseMs: 1000 });
      expect(released).toMatchObject({ id: claimed?.id, attempt: 2 });
      await storage.deliveries.recordAttempt({
        delivery: released as ClaimedDelivery,
        attempt: { attemptedAt: later, status: 200, durationMs: 3, error: null, responseExcerpt: null },
        next: { state: "delivered" },
        webhook: { failingSince: null, deactivate: false },
      });
      expect(await storage.deliveries.purgeFinished(later)).toBe(0);
      expect(await storage.deliveries.purgeFinished(new Date(later.getTime() + 1))).toBe(1);
      expect(await deliveriesOf(storage, acme)).toEqual([]);
    });

    it("pages a webhook's deliveries newest first", async () => {
      const acme = await organization("Acme");
      const target = webhook(acme, ["EMAIL_SENT"], "2026-01-02T00:00:00.000Z");
      await storage.webhooks.create(target, 20);
      for (let n = 0; n < 5; n++) await sentEmail(acme, `2026-03-01T10:00:0${n}.000Z`);
      const firstPage = await storage.deliveries.list(acme, target.id, { limit: 3 });
      const secondPage = await storage.deliveries.list(acme, target.id, {
        limit: 3,
        before: firstPage.at(-1)?.id,
      });
      const ids = [...firstPage, ...secondPage].map((delivery) => delivery.id);
      expect(ids).toHaveLength(5);
      expect([...ids].sort((a, b) => b - a)).toEqual(ids);
      expect(await storage.deliveries.list("other", target.id, { limit: 3 })).toEqual([]);
    });

    it("pages the event log oldest first, by type and by email, without gap or repeat", async () => {
      const acme = await organization("Acme");
      const beta = await organization("Beta");
      const emails: string[] = [];
      for (let n = 0; n < 7; n++) emails.push(await sentEmail(acme, `2026-03-01T10:00:0${n}.000Z`));
      await sentEmail(beta, "2026-03-01T10:00:00.000Z");
      const seen: number[] = [];
      let after: number | undefined;
      for (;;) {
        const page = await storage.events.list(acme, { after, limit: 3 });
        seen.push(...page.map((event) => event.id));
        if (page.length < 3) break;
        after = page.at(-1)?.id;
      }
      expect(seen).toHaveLength(7);
      expect(new Set(seen).size).toBe(7);
      const all = await storage.events.list(acme, { limit: 100 });
      expect(all.map((event) => event.email.id)).toEqual(emails);
      expect(await storage.events.list(acme, { limit: 100, types: ["open", "click"] })).toEqual([]);
      expect(
        (await storage.events.list(acme, { limit: 100, emailId: emails[3] })).map((e) => e.email.id),
      ).toEqual([emails[3]]);
      const some = [all[4]!.id, 999_999_999, all[1]!.id];
      expect((await storage.events.findByIds(acme, some)).map((event) => event.id)).toEqual([
        all[4]!.id,
        all[1]!.id,
      ]);
      expect(await storage.events.findByIds(beta, [all[0]!.id])).toEqual([]);
    });

    it("lists an organization's emails of every status, newest first, at most `limit`", async () => {
      const acme = await organization("Acme");
      const beta = await organization("Beta");
      const sending = contractEmail(acme, "2026-03-01T00:00:00.000Z", "sending");
      const sent = contractEmail(acme, "2026-03-02T00:00:00.000Z", "sent");
      const failed = contractEmail(acme, "2026-03-03T00:00:00.000Z", "failed");
      for (const email of [sending, sent, failed]) await storage.emails.create(email);
      await storage.emails.create(contractEmail(beta, "2026-03-04T00:00:00.000Z", "beta"));
      await storage.emails.markSent(acme, sent.id, {
        providerMessageId: "p-1",
        sentAt: at("2026-03-02T00:00:01Z"),
      });
      await storage.emails.markFailed(acme, failed.id, "550 refused");

      const listed = await storage.emails.list(acme, 10);
      expect(listed.map((email) => [email.subject, email.status])).toEqual([
        ["failed", "failed"],
        ["sent", "sent"],
        ["sending", "sending"],
      ]);
      expect(listed[0]).toMatchObject({ failureReason: "550 refused", sentAt: null, openCount: 0 });
      expect(listed[1]).toMatchObject({ providerMessageId: "p-1", sentAt: at("2026-03-02T00:00:01Z") });
      expect((await storage.emails.list(acme, 2)).map((email) => email.subject)).toEqual(["failed", "sent"]);
      expect(await storage.emails.list("no-such-organization", 10)).toEqual([]);
    });
  });
}
