import { expect, it } from "vitest";
import type { TrackingHit } from "../ports/storage.js";
import {
  clickHit,
  dayOf,
  openHit,
  type TrackingContractContext,
  withWebhook,
} from "./tracking-store-fixtures.js";

/**
 * Cases of the tracking store contract about the webhook outbox and atomicity: deliveries are
 * queued only for active, subscribed webhooks of the hit's organization, a payload is built only
 * when someone receives it, and a batch that fails leaves nothing behind.
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
    const calls = { count: 0 };
    await storage.tracking.recordEvents([
      withWebhook(openHit(sent, opened), calls, '{"n":"open"}'),
      withWebhook(clickHit(sent, 0, clicked), calls, '{"n":"click"}'),
      // A hit without a webhook event queues nothing, whoever listens.
      openHit(sent, "2026-03-01T09:02:00.000Z"),
    ]);
    // One payload per hit, however many webhooks receive it.
    expect(calls.count).toBe(2);
    const deliveries = (await storage.webhooks.listDeliveries(acme))
      .map(({ webhookId, eventType, payload, status, attempts, createdAt }) => ({
        webhookId,
        eventType,
        payload,
        status,
        attempts,
        createdAt: createdAt.toISOString(),
      }))
      .sort((a, b) => (`${a.payload} ${a.webhookId}` < `${b.payload} ${b.webhookId}` ? -1 : 1));
    const pending = { status: "pending", attempts: 0 };
    expect(deliveries).toEqual([
      {
        webhookId: clicksOnly,
        eventType: "EMAIL_CLICKED",
        payload: '{"n":"click"}',
        ...pending,
        createdAt: clicked,
      },
      {
        webhookId: everything,
        eventType: "EMAIL_CLICKED",
        payload: '{"n":"click"}',
        ...pending,
        createdAt: clicked,
      },
      {
        webhookId: everything,
        eventType: "EMAIL_OPENED",
        payload: '{"n":"open"}',
        ...pending,
        createdAt: opened,
      },
    ]);
    expect(await storage.webhooks.listDeliveries(beta)).toEqual([]);
  });

  it("never builds a payload when no webhook listens", async () => {
    const { storage, fixtures } = context;
    const org = await fixtures.organization();
    const other = await fixtures.organization("Other");
    await fixtures.webhook(other, ["EMAIL_OPENED"]);
    await fixtures.webhook(org, ["EMAIL_OPENED"], false);
    await fixtures.webhook(org, ["EMAIL_SENT"]);
    const sent = await fixtures.email({ organizationId: org, to: ["ann@example.com"] });
    const calls = { count: 0 };
    const hits = [1, 2, 3].map((n) => withWebhook(openHit(sent, `2026-03-01T09:0${n}:00.000Z`), calls));
    expect(await storage.tracking.recordEvents(hits)).toBe(3);
    expect(calls.count).toBe(0);
    expect((await storage.webhooks.listDeliveries(org)).filter((d) => d.eventType !== "EMAIL_SENT")).toEqual(
      [],
    );
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
    const poisoned: TrackingHit = {
      ...openHit(sent, at),
      webhook: {
        type: "EMAIL_OPENED",
        payload: () => {
          throw new Error("payload failed");
        },
      },
    };
    await expect(storage.tracking.recordEvents([openHit(sent, at), poisoned])).rejects.toThrow(
      "payload failed",
    );
    expect(await storage.emails.get(org, sent.id)).toMatchObject({ openCount: 0 });
    expect(await storage.stats.getContact(org, "ann@example.com")).toMatchObject({ totalOpens: 0 });
    expect(await storage.stats.campaignDailyTotals(org, campaign, dayOf(at), dayOf(at))).toEqual([
      { day: dayOf(at), emails: 1, opens: 0, clicks: 0 },
    ]);
    const timeline = await storage.stats.contactTimeline(org, "ann@example.com", 10);
    expect(timeline.map((entry) => entry.type)).toEqual(["sent"]);
    expect(await storage.webhooks.listDeliveries(org)).toEqual([]);
  });
}
