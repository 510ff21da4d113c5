/**
 * The delivery feedback log (docs/deliverability.md): one row per (email, recipient, kind), the
 * event and its webhook deliveries written with it, the `bounced` status when every `to`
 * hard-bounced, the soft-bounce count, organization scoping; and the instance secrets.
 */

import type { NewDeliveryFeedback, Storage, WebhookRecord } from "@mailpulse/core/storage";
import { createResourceId } from "@mailpulse/core/storage";
import { describe, expect, it } from "vitest";
import { deliveriesOf } from "../tracking-store-fixtures.js";
import { contractEmail } from "./outbox-contract.js";
import type { StorageFactory } from "./storage-factory.js";
import { eachCaseWithTwoOrganizations } from "./two-organizations.js";

const at = (iso: string) => new Date(iso);

function webhook(organizationId: string, events: WebhookRecord["events"], isActive = true): WebhookRecord {
  return {
    id: createResourceId(),
    organizationId,
    url: "https://hooks.example/in",
    events,
    secret: "whsec_contract",
    previousSecret: null,
    previousSecretExpiresAt: null,
    isActive,
    failingSince: null,
    createdAt: at("2026-03-01T00:00:00.000Z"),
    updatedAt: at("2026-03-01T00:00:00.000Z"),
  };
}

/** A sent email of the organization (to bob and amy, bcc audit); resolves with its id. */
async function sentEmail(storage: Storage, organizationId: string, sentAt = "2026-03-02T10:00:00.000Z") {
  const email = contractEmail(organizationId, sentAt);
  await storage.emails.create(email);
  await storage.emails.markSent(organizationId, email.id, {
    providerMessageId: `<${email.id}@x>`,
    sentAt: at(sentAt),
  });
  return email.id;
}

function hardBounce(
  organizationId: string,
  emailId: string,
  recipient = "bob@example.com",
): NewDeliveryFeedback {
  return {
    organizationId,
    emailId,
    recipient,
    kind: "bounce",
    bounceType: "hard",
    status: "5.1.1",
    diagnostic: "smtp; 550 5.1.1 user unknown",
    feedbackType: null,
    source: "inbound-smtp",
    occurredAt: at("2026-03-02T10:05:00.000Z"),
  };
}

/** The delivery feedback store and the instance secret store, over storages from `createStorage`. */
export function deliveryFeedbackContract(createStorage: StorageFactory): void {
  describe("delivery feedback", () => {
    const scope = eachCaseWithTwoOrganizations(createStorage);

    it("records a report once: the same bounce twice is one row, one event, one delivery per subscribed webhook", async () => {
      const { storage, acme, other } = scope;
      const bounced = webhook(acme, ["EMAIL_BOUNCED"]);
      await storage.webhooks.create(bounced, 20);
      await storage.webhooks.create(webhook(acme, ["EMAIL_SENT", "EMAIL_COMPLAINED"]), 20);
      await storage.webhooks.create(webhook(acme, ["EMAIL_BOUNCED"], false), 20);
      await storage.webhooks.create(webhook(other, ["EMAIL_BOUNCED"]), 20);
      const emailId = await sentEmail(storage, acme);

      const first = await storage.deliveryFeedback.record({
        ...hardBounce(acme, emailId),
        recipient: " Bob@Example.COM ",
      });
      expect(first).toEqual({ recorded: true, eventId: expect.any(Number), emailBounced: false });
      expect(await storage.deliveryFeedback.record(hardBounce(acme, emailId))).toEqual({
        recorded: false,
        eventId: null,
        emailBounced: false,
      });

      expect(await storage.deliveryFeedback.listForEmail(acme, emailId)).toEqual([
        {
          id: expect.any(Number),
          ...hardBounce(acme, emailId),
          campaignId: null,
        },
      ]);
      const events = await storage.events.list(acme, { limit: 10, types: ["bounce"] });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        id: first?.eventId,
        type: "bounce",
        occurredAt: at("2026-03-02T10:05:00.000Z"),
        email: { id: emailId, to: ["Bob <bob@example.com>", "amy@example.com"] },
        verdict: null,
        details: {
          recipient: "bob@example.com",
          bounceType: "hard",
          status: "5.1.1",
          diagnostic: "smtp; 550 5.1.1 user unknown",
        },
      });
      expect(await storage.events.findByIds(acme, [first?.eventId ?? 0])).toEqual(events);
      const deliveries = (await deliveriesOf(storage, acme)).filter((d) => d.eventType !== "EMAIL_SENT");
      expect(
        deliveries.map(({ webhookId, eventId, eventType, status }) => ({
          webhookId,
          eventId,
          eventType,
          status,
        })),
      ).toEqual([
        { webhookId: bounced.id, eventId: first?.eventId, eventType: "EMAIL_BOUNCED", status: "pending" },
      ]);
      expect(await deliveriesOf(storage, other)).toEqual([]);
    });

    it("keeps organizations apart: another organization's email is not found and nothing is written", async () => {
      const { storage, acme, other } = scope;
      const emailId = await sentEmail(storage, acme);
      expect(await storage.deliveryFeedback.record(hardBounce(other, emailId))).toBeUndefined();
      expect(await storage.deliveryFeedback.record(hardBounce(acme, "no-such-email"))).toBeUndefined();
      expect(await storage.deliveryFeedback.listForEmail(acme, emailId)).toEqual([]);
      expect(await storage.events.list(other, { limit: 10 })).toEqual([]);

      const soft = { ...hardBounce(acme, emailId), bounceType: "soft" as const, status: "4.2.2" };
      await storage.deliveryFeedback.record(soft);
      expect(await storage.deliveryFeedback.listForEmail(other, emailId)).toEqual([]);
      expect(
        await storage.deliveryFeedback.countSoftBounces(
          other,
          "bob@example.com",
          at("2026-01-01T00:00:00.000Z"),
        ),
      ).toBe(0);
      expect(
        await storage.deliveryFeedback.countSoftBounces(
          acme,
          "BOB@example.com",
          at("2026-01-01T00:00:00.000Z"),
        ),
      ).toBe(1);
    });

    it("keeps each kind apart, logs no event for a delay, and upgrades a soft bounce to hard as news", async () => {
      const { storage, acme } = scope;
      const emailId = await sentEmail(storage, acme);
      const base = hardBounce(acme, emailId);
      const delay = await storage.deliveryFeedback.record({
        ...base,
        kind: "delay",
        bounceType: null,
        status: "4.4.7",
      });
      expect(delay).toEqual({ recorded: true, eventId: null, emailBounced: false });
      const soft = await storage.deliveryFeedback.record({ ...base, bounceType: "soft", status: "4.2.2" });
      expect(soft?.recorded).toBe(true);
      // A second soft one of the same email: one email counts once.
      expect(
        (await storage.deliveryFeedback.record({ ...base, bounceType: "soft", status: "4.2.2" }))?.recorded,
      ).toBe(false);
      const hard = await storage.deliveryFeedback.record({
        ...base,
        occurredAt: at("2026-03-03T00:00:00.000Z"),
      });
      expect(hard).toMatchObject({ recorded: true, eventId: expect.any(Number) });
      // After the hard one, a late soft one changes nothing.
      expect((await storage.deliveryFeedback.record({ ...base, bounceType: "soft" }))?.recorded).toBe(false);
      const complaint = await storage.deliveryFeedback.record({
        ...base,
        kind: "complaint",
        bounceType: null,
        status: null,
        diagnostic: null,
        feedbackType: "abuse",
        source: "sns",
      });
      const unsubscribe = await storage.deliveryFeedback.record({
        ...base,
        kind: "unsubscribe",
        bounceType: null,
        status: null,
        diagnostic: null,
        source: "one-click",
      });
      expect(complaint?.recorded && unsubscribe?.recorded).toBe(true);

      const rows = await storage.deliveryFeedback.listForEmail(acme, emailId);
      expect(rows.map((row) => [row.kind, row.bounceType, row.status])).toEqual([
        ["delay", null, "4.4.7"],
        ["bounce", "hard", "5.1.1"],
        ["complaint", null, null],
        ["unsubscribe", null, null],
      ]);
      const events = await storage.events.list(acme, {
        limit: 10,
        types: ["bounce", "complaint", "unsubscribe"],
      });
      expect(events.map((event) => [event.type, event.details])).toEqual([
        [
          "bounce",
          { recipient: "bob@example.com", bounceType: "soft", status: "4.2.2", diagnostic: base.diagnostic },
        ],
        [
          "bounce",
          { recipient: "bob@example.com", bounceType: "hard", status: "5.1.1", diagnostic: base.diagnostic },
        ],
        ["complaint", { recipient: "bob@example.com", feedbackType: "abuse" }],
        ["unsubscribe", { recipient: "bob@example.com", source: "one-click" }],
      ]);
      expect(
        await storage.deliveryFeedback.countSoftBounces(
          acme,
          "bob@example.com",
          at("2026-01-01T00:00:00.000Z"),
        ),
      ).toBe(0);
    });

    it("sets the email bounced once every `to` recipient hard-bounced, and only a sent email", async () => {
      const { storage, acme } = scope;
      const emailId = await sentEmail(storage, acme);
      // The bcc does not count: it is not a `to`.
      expect(
        (await storage.deliveryFeedback.record(hardBounce(acme, emailId, "audit@acme.example")))
          ?.emailBounced,
      ).toBe(false);
      expect(
        (await storage.deliveryFeedback.record(hardBounce(acme, emailId, "bob@example.com")))?.emailBounced,
      ).toBe(false);
      expect((await storage.emails.get(acme, emailId))?.status).toBe("sent");
      expect(
        (await storage.deliveryFeedback.record(hardBounce(acme, emailId, "amy@example.com")))?.emailBounced,
      ).toBe(true);
      expect((await storage.emails.get(acme, emailId))?.status).toBe("bounced");

      // Still `sending`: the send settles it, a bounce does not.
      const sending = contractEmail(acme, "2026-03-02T11:00:00.000Z");
      await storage.emails.create(sending);
      for (const recipient of ["bob@example.com", "amy@example.com"]) {
        await storage.deliveryFeedback.record(hardBounce(acme, sending.id, recipient));
      }
      expect((await storage.emails.get(acme, sending.id))?.status).toBe("sending");
    });

    it("counts an address's soft bounces since a time, one per email", async () => {
      const { storage, acme } = scope;
      const soft = (emailId: string, iso: string): NewDeliveryFeedback => ({
        ...hardBounce(acme, emailId),
        bounceType: "soft",
        status: "4.2.2",
        occurredAt: at(iso),
      });
      for (const iso of [
        "2026-03-01T00:00:00.000Z",
        "2026-03-05T00:00:00.000Z",
        "2026-03-06T00:00:00.000Z",
      ]) {
        const emailId = await sentEmail(storage, acme, iso);
        await storage.deliveryFeedback.record(soft(emailId, iso));
        await storage.deliveryFeedback.record(soft(emailId, iso));
      }
      expect(
        await storage.deliveryFeedback.countSoftBounces(
          acme,
          "bob@example.com",
          at("2026-03-01T00:00:00.000Z"),
        ),
      ).toBe(3);
      expect(
        await storage.deliveryFeedback.countSoftBounces(
          acme,
          "bob@example.com",
          at("2026-03-01T00:00:00.001Z"),
        ),
      ).toBe(2);
      expect(
        await storage.deliveryFeedback.countSoftBounces(
          acme,
          "amy@example.com",
          at("2026-03-01T00:00:00.000Z"),
        ),
      ).toBe(0);
    });
  });

  describe("delivery feedback statistics", () => {
    const scope = eachCaseWithTwoOrganizations(createStorage);

    it("counts emails (not reports) per kind, by campaign, send time, recipient and report day, only of counted emails", async () => {
      const { storage, acme, other } = scope;
      const campaignId = createResourceId();
      await storage.campaigns.create(
        {
          id: campaignId,
          organizationId: acme,
          name: "Spring",
          createdAt: at("2026-03-01T00:00:00.000Z"),
          archivedAt: null,
        },
        {},
      );
      const inCampaign = async (sentAt: string) => {
        const email = { ...contractEmail(acme, sentAt), campaignId };
        await storage.emails.create(email);
        await storage.emails.markSent(acme, email.id, { providerMessageId: null, sentAt: at(sentAt) });
        return email.id;
      };
      const first = await inCampaign("2026-03-02T10:00:00.000Z");
      const second = await inCampaign("2026-03-04T10:00:00.000Z");
      const standalone = await sentEmail(storage, acme, "2026-03-04T11:00:00.000Z");
      const failed = contractEmail(acme, "2026-03-04T12:00:00.000Z");
      await storage.emails.create(failed);
      await storage.emails.markFailed(acme, failed.id, "refused");
      const report = (
        emailId: string,
        recipient: string,
        kind: NewDeliveryFeedback["kind"],
        day: string,
      ) => ({
        ...hardBounce(acme, emailId, recipient),
        kind,
        bounceType: kind === "bounce" ? ("hard" as const) : null,
        occurredAt: at(`${day}T12:00:00.000Z`),
      });
      // Both `to` of the first email hard-bounce: one email.
      await storage.deliveryFeedback.record(report(first, "bob@example.com", "bounce", "2026-03-02"));
      await storage.deliveryFeedback.record(report(first, "amy@example.com", "bounce", "2026-03-03"));
      await storage.deliveryFeedback.record({
        ...report(second, "bob@example.com", "bounce", "2026-03-04"),
        bounceType: "soft",
      });
      await storage.deliveryFeedback.record(report(second, "amy@example.com", "complaint", "2026-03-05"));
      await storage.deliveryFeedback.record(report(second, "amy@example.com", "unsubscribe", "2026-03-05"));
      await storage.deliveryFeedback.record(report(second, "bob@example.com", "delay", "2026-03-05"));
      await storage.deliveryFeedback.record(
        report(standalone, "amy@example.com", "unsubscribe", "2026-03-05"),
      );
      // A failed email is counted nowhere, its feedback neither.
      await storage.deliveryFeedback.record(report(failed.id, "bob@example.com", "bounce", "2026-03-05"));

      expect(await storage.deliveryFeedback.totals(acme, { campaignId })).toEqual({
        hardBounces: 1,
        softBounces: 1,
        complaints: 1,
        unsubscribes: 1,
      });
      expect(await storage.deliveryFeedback.totals(acme, {})).toEqual({
        hardBounces: 1,
        softBounces: 1,
        complaints: 1,
        unsubscribes: 2,
      });
      expect(
        await storage.deliveryFeedback.totals(acme, {
          campaignId,
          sentWithin: { start: at("2026-03-03T00:00:00.000Z"), end: at("2026-03-31T00:00:00.000Z") },
        }),
      ).toEqual({ hardBounces: 0, softBounces: 1, complaints: 1, unsubscribes: 1 });
      expect(await storage.deliveryFeedback.totals(acme, { recipient: "AMY@example.com" })).toEqual({
        hardBounces: 1,
        softBounces: 0,
        complaints: 1,
        unsubscribes: 2,
      });
      expect(await storage.deliveryFeedback.totals(other, {})).toEqual({
        hardBounces: 0,
        softBounces: 0,
        complaints: 0,
        unsubscribes: 0,
      });
      const day = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00.000Z`) / 86_400_000);
      expect(
        await storage.deliveryFeedback.dailyTotals(acme, campaignId, day("2026-03-03"), day("2026-03-10")),
      ).toEqual([
        { day: day("2026-03-03"), hardBounces: 1, softBounces: 0, complaints: 0, unsubscribes: 0 },
        { day: day("2026-03-04"), hardBounces: 0, softBounces: 1, complaints: 0, unsubscribes: 0 },
        { day: day("2026-03-05"), hardBounces: 0, softBounces: 0, complaints: 1, unsubscribes: 1 },
      ]);
      expect(await storage.deliveryFeedback.dailyTotals(other, campaignId, 0, day("2026-03-10"))).toEqual([]);
    });
  });

  describe("instance secrets", () => {
    const scope = eachCaseWithTwoOrganizations(createStorage);

    it("keeps the first secret stored under a name, even when processes race to create it", async () => {
      const secrets = scope.storage.instanceSecrets;
      if (!secrets) throw new Error("this storage keeps no instance secrets");
      const candidates = Array.from({ length: 8 }, (_, n) => `candidate-${n}`);
      const answers = await Promise.all(
        candidates.map((candidate) => secrets.getOrCreate("signing-key", candidate)),
      );
      expect(new Set(answers).size).toBe(1);
      expect(candidates).toContain(answers[0]);
      expect(await secrets.getOrCreate("signing-key", "later")).toBe(answers[0]);
      expect(await secrets.getOrCreate("another", "its own")).toBe("its own");
    });
  });
}
