/**
 * The webhook store and its outbox: webhooks as stored, and the deliveries a sent email queues
 * in the transaction that marks it sent (the tracking store's hits queue theirs the same way; the
 * tracking-store contract checks those).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { NewEmailRecord, Storage, WebhookRecord } from "../../ports/storage.js";
import { createResourceId } from "../../util/ids.js";
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
    sender: "news@acme.example",
    replyTo: null,
    subject,
    metadata: null,
    trackOpens: true,
    trackClicks: true,
    recipients: [{ kind: "to", address: "bob@example.com", display: "bob@example.com" }],
    links: [],
    createdAt: at(createdAt),
  };
}

/** Webhooks, the outbox they are fed from, and the email list, over storages from `createStorage`. */
export function outboxContract(createStorage: StorageFactory): void {
  describe("webhooks, outbox and emails", () => {
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
        isActive,
        createdAt: at(createdAt),
        updatedAt: at(createdAt),
      };
    }

    it("stores webhooks and lists an organization's oldest first, exactly as given", async () => {
      const acme = await organization("Acme");
      const beta = await organization("Beta");
      const second = webhook(acme, ["EMAIL_CLICKED"], "2026-01-03T00:00:00.000Z", false);
      const first = webhook(acme, ["EMAIL_SENT", "EMAIL_OPENED"], "2026-01-02T00:00:00.000Z");
      await storage.webhooks.create(second);
      await storage.webhooks.create(first);
      await storage.webhooks.create(webhook(beta, ["EMAIL_SENT"], "2026-01-01T00:00:00.000Z"));
      expect(await storage.webhooks.list(acme)).toEqual([first, second]);
      expect(await storage.webhooks.list("no-such-organization")).toEqual([]);
    });

    it("queues one delivery per active webhook subscribed to a sent email's event, when it is marked sent", async () => {
      const acme = await organization("Acme");
      const beta = await organization("Beta");
      const subscribed = webhook(acme, ["EMAIL_SENT", "EMAIL_OPENED"], "2026-01-02T00:00:00.000Z");
      const alsoSubscribed = webhook(acme, ["EMAIL_SENT"], "2026-01-02T00:00:01.000Z");
      await storage.webhooks.create(subscribed);
      await storage.webhooks.create(alsoSubscribed);
      await storage.webhooks.create(webhook(acme, ["EMAIL_CLICKED"], "2026-01-03T00:00:00.000Z"));
      await storage.webhooks.create(webhook(acme, ["EMAIL_SENT"], "2026-01-04T00:00:00.000Z", false));
      await storage.webhooks.create(webhook(beta, ["EMAIL_SENT"], "2026-01-05T00:00:00.000Z"));

      const email = contractEmail(acme, "2026-03-01T10:00:00.000Z");
      await storage.emails.create(email);
      // Queued with the fact, never before it: a `sending` email has no deliveries yet.
      expect(await storage.webhooks.listDeliveries(acme)).toEqual([]);

      const event = {
        type: "EMAIL_SENT" as const,
        payload: '{"type":"EMAIL_SENT"}',
        createdAt: at("2026-03-01T10:00:01.000Z"),
      };
      const mark = { providerMessageId: "p-1", sentAt: at("2026-03-01T10:00:01.000Z"), event };
      expect(await storage.emails.markSent(acme, email.id, mark)).toBe(true);
      // Marking it again changes nothing and queues nothing.
      expect(await storage.emails.markSent(acme, email.id, mark)).toBe(false);

      const deliveries = await storage.webhooks.listDeliveries(acme);
      expect(deliveries.map(({ id, ...delivery }) => delivery)).toEqual(
        [subscribed, alsoSubscribed].map((target) => ({
          webhookId: target.id,
          eventType: "EMAIL_SENT",
          payload: event.payload,
          status: "pending",
          attempts: 0,
          createdAt: event.createdAt,
        })),
      );
      expect(deliveries[0]!.id).toBeLessThan(deliveries[1]!.id);
      expect(await storage.webhooks.listDeliveries(beta)).toEqual([]);
    });

    it("queues the event of an email stored as sent at once, and none for a failed one", async () => {
      const acme = await organization("Acme");
      const target = webhook(acme, ["EMAIL_SENT"], "2026-01-02T00:00:00.000Z");
      await storage.webhooks.create(target);
      const sentAt = at("2026-03-02T09:00:00.000Z");
      const event = { type: "EMAIL_SENT" as const, payload: '{"n":1}', createdAt: sentAt };
      await storage.emails.create(contractEmail(acme, "2026-03-02T09:00:00.000Z"), {
        providerMessageId: null,
        sentAt,
        event,
      });
      const failed = contractEmail(acme, "2026-03-02T10:00:00.000Z");
      await storage.emails.create(failed);
      await storage.emails.markFailed(acme, failed.id, "550 refused");
      expect(await storage.emails.markSent(acme, failed.id, { providerMessageId: "p", sentAt, event })).toBe(
        false,
      );
      expect(await storage.webhooks.listDeliveries(acme)).toMatchObject([
        { webhookId: target.id, eventType: "EMAIL_SENT", payload: '{"n":1}', status: "pending" },
      ]);
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
