import type { TrackingHit } from "@mailpulse/core/storage";
import { expect, it } from "vitest";
import { readerDays } from "./reader-figures.js";
import {
  clickHit,
  dayOf,
  deliveriesOf,
  openHit,
  type TrackingContractContext,
} from "./tracking-store-fixtures.js";

/**
 * Cases of the tracking store contract about the webhook outbox and atomicity: deliveries are
 * queued only for active, subscribed webhooks of the hit's organization, each naming the event row
 * it delivers, and a batch that fails leaves nothing behind.
 */
export function trackingOutboxCases(context: TrackingContractContext): void {
  it("queues deliveries only for active webhooks of the organization subscribed to the hit's event", async () => {
    const { storage, fixtures } = context;
    const acme = await fixtures.organization("Acme");
    const beta = await fixtures.organization("Beta");
    const clicksOnly = await fixtures.webhook(acme, ["EMAIL_CLICKED"]);
    const everything = await fixtures.webhook(acme, ["EMAIL_SENT", "EMAIL_OPENED", "EMAIL_CLICKED"]);
    await fixtures.webhook(acme, ["EMAIL_OPENED", "EMAIL_CLICKED"], false);
    await fixtures.webhook(beta, ["EMAIL_OPENED", "EMAIL_CLICKED"]);
    const sent = await fixtures.email({
      organizationId: acme,
      to: ["ann@example.com"],
      links: ["https://x.test"],
    });
    const [opened, clicked] = ["2026-03-01T09:00:00.000Z", "2026-03-01T09:01:00.000Z"];
    await storage.tracking.recordEvents([openHit(sent, opened), clickHit(sent, 0, clicked)]);
    const deliveries = (await deliveriesOf(storage, acme)).filter((d) => d.eventType !== "EMAIL_SENT");
    const pending = { status: "pending", attempts: 0, lastStatus: null, lastError: null, deliveredAt: null };
    expect(
      deliveries
        .map(({ webhookId, eventType, status, attempts, lastStatus, lastError, deliveredAt, createdAt }) => ({
          webhookId,
          eventType,
          status,
          attempts,
          lastStatus,
          lastError,
          deliveredAt,
          createdAt: createdAt.toISOString(),
        }))
        .sort((a, b) => (`${a.eventType} ${a.webhookId}` < `${b.eventType} ${b.webhookId}` ? -1 : 1)),
    ).toEqual(
      [
        { webhookId: clicksOnly, eventType: "EMAIL_CLICKED", ...pending, createdAt: clicked },
        { webhookId: everything, eventType: "EMAIL_CLICKED", ...pending, createdAt: clicked },
        { webhookId: everything, eventType: "EMAIL_OPENED", ...pending, createdAt: opened },
      ].sort((a, b) => (`${a.eventType} ${a.webhookId}` < `${b.eventType} ${b.webhookId}` ? -1 : 1)),
    );
    // Each delivery names its event in the log; both subscribers of the click share one event.
    const events = await storage.events.findByIds(
      acme,
      deliveries.map((d) => d.eventId),
    );
    const typeOf = new Map(events.map((event) => [event.id, event.type]));
    for (const delivery of deliveries) {
      expect(typeOf.get(delivery.eventId)).toBe(delivery.eventType === "EMAIL_OPENED" ? "open" : "click");
    }
    const clickEvents = new Set(
      deliveries.filter((d) => d.eventType === "EMAIL_CLICKED").map((d) => d.eventId),
    );
    expect(clickEvents.size).toBe(1);
    expect(await deliveriesOf(storage, beta)).toEqual([]);
  });

  it("queues nothing for hits when no active webhook of the organization listens to them", async () => {
    const { storage, fixtures } = context;
    const org = await fixtures.organization();
    const other = await fixtures.organization("Other");
    await fixtures.webhook(other, ["EMAIL_OPENED"]);
    await fixtures.webhook(org, ["EMAIL_OPENED"], false);
    await fixtures.webhook(org, ["EMAIL_SENT"]);
    const sent = await fixtures.email({ organizationId: org, to: ["ann@example.com"] });
    const hits = [1, 2, 3].map((n) => openHit(sent, `2026-03-01T09:0${n}:00.000Z`));
    expect(await storage.tracking.recordEvents(hits)).toBe(3);
    expect((await deliveriesOf(storage, org)).filter((d) => d.eventType !== "EMAIL_SENT")).toEqual([]);
  });

  it("writes all of a batch or nothing of it", async () => {
    const { storage, fixtures } = context;
    const org = await fixtures.organization();
    const campaign = await fixtures.campaign(org);
    await fixtures.webhook(org, ["EMAIL_OPENED"]);
    const sent = await fixtures.email({
      organizationId: org,
      campaignId: campaign,
      to: ["ann@example.com"],
    });
    const at = "2026-03-01T09:00:00.000Z";
    // An event row without a time breaks a NOT NULL constraint after the counters were updated.
    const poisoned: TrackingHit = { event: { ...openHit(sent, at).event, occurredAt: new Date(Number.NaN) } };
    await expect(storage.tracking.recordEvents([openHit(sent, at), poisoned])).rejects.toThrow();
    expect(await storage.emails.get(org, sent.id)).toMatchObject({ openCount: 0 });
    expect(await storage.stats.getContact(org, "ann@example.com")).toMatchObject({ totalOpens: 0 });
    expect(await storage.stats.campaignDailyTotals(org, campaign, dayOf(at), dayOf(at))).toEqual(
      readerDays([{ day: dayOf(at), emails: 1, opens: 0, clicks: 0 }]),
    );
    const timeline = await storage.stats.contactTimeline(org, "ann@example.com", 10);
    expect(timeline.map((entry) => entry.type)).toEqual(["sent"]);
    expect(await deliveriesOf(storage, org)).toEqual([]);
    expect(await storage.events.list(org, { limit: 10, types: ["open"] })).toEqual([]);
  });
}
