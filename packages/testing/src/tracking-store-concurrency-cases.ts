import { expect, it } from "vitest";
import {
  clickHit,
  dayOf,
  deliveriesOf,
  type FixtureEmail,
  openHit,
  seededRandom,
  type TrackingContractContext,
} from "./tracking-store-fixtures.js";

/**
 * Cases of the tracking store contract about concurrent writers (several processes, or one pool
 * of connections): overlapping batches, and batches racing sends to the same contacts, all
 * commit, without a deadlock error reaching the caller and without a count lost.
 */
export function trackingConcurrencyCases(context: TrackingContractContext): void {
  it("lets concurrent batches over the same emails and contacts all commit, with exact counts", async () => {
    const { storage, fixtures } = context;
    const org = await fixtures.organization();
    const campaign = await fixtures.campaign(org);
    // Six emails to three shared contacts: every batch touches the same rows of every table.
    const contacts = ["ann@example.com", "bob@example.com", "carol@example.com"];
    const emails: FixtureEmail[] = [];
    for (let i = 0; i < 6; i++) {
      emails.push(
        await fixtures.email({
          organizationId: org,
          campaignId: campaign,
          to: i % 2 === 0 ? contacts : [...contacts].reverse(),
          links: ["https://example.com/one", "https://example.com/two"],
          sentAt: "2026-03-01T08:00:00.000Z",
        }),
      );
    }
    await fixtures.webhook(org, ["EMAIL_CLICKED"]);
    const random = seededRandom(7);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const days = ["2026-03-01T10:00:00.000Z", "2026-03-02T10:00:00.000Z", "2026-03-03T10:00:00.000Z"];
    const batches = Array.from({ length: 12 }, () =>
      Array.from({ length: 30 }, () => {
        const target = pick(emails);
        const at = pick(days);
        return random() < 0.5 ? openHit(target, at) : clickHit(target, random() < 0.5 ? 0 : 1, at);
      }),
    );
    const hits = batches.flat();

    const results = await Promise.all(batches.map((batch) => storage.tracking.recordEvents(batch)));
    expect(results).toEqual(batches.map((batch) => batch.length));

    for (const target of emails) {
      const mine = hits.filter((hit) => hit.event.emailId === target.id);
      expect(await storage.emails.get(org, target.id)).toMatchObject({
        openCount: mine.filter((hit) => hit.event.type === "open").length,
        clickCount: mine.filter((hit) => hit.event.type === "click").length,
      });
    }
    const opens = hits.filter((hit) => hit.event.type === "open").length;
    const clicks = hits.length - opens;
    for (const address of contacts) {
      expect(await storage.stats.getContact(org, address)).toMatchObject({
        totalOpens: opens,
        totalClicks: clicks,
      });
    }
    expect(await storage.stats.campaignTotals(org, campaign)).toMatchObject({
      totalOpens: opens,
      totalClicks: clicks,
    });
    const daily = await storage.stats.campaignDailyTotals(org, campaign, dayOf(days[0]!), dayOf(days[2]!));
    expect(daily).toEqual(
      // Every hit here is a reader's: the human counts equal the raw ones.
      days.map((at, index) => {
        const ofDay = hits.filter((hit) => hit.event.occurredAt.toISOString() === at);
        const dayOpens = ofDay.filter((hit) => hit.event.type === "open").length;
        return {
          day: dayOf(at),
          emails: index === 0 ? 6 : 0,
          opens: dayOpens,
          clicks: ofDay.length - dayOpens,
          humanOpens: dayOpens,
          humanClicks: ofDay.length - dayOpens,
        };
      }),
    );
    const byUrl = (url: string) =>
      hits.filter(
        (hit) =>
          hit.event.linkId !== null &&
          emails.some((e) => e.linkIds[url === "one" ? 0 : 1] === hit.event.linkId),
      ).length;
    expect(await storage.stats.campaignLinks(org, campaign)).toEqual(
      expect.arrayContaining([
        { url: "https://example.com/one", clicks: byUrl("one") },
        { url: "https://example.com/two", clicks: byUrl("two") },
      ]),
    );
    expect((await deliveriesOf(storage, org)).length).toBe(clicks);
  });

  it("records hits while emails to the same contacts are being marked sent, without a deadlock", async () => {
    const { storage, fixtures } = context;
    const org = await fixtures.organization();
    const contacts = ["ann@example.com", "bob@example.com", "carol@example.com", "dave@example.com"];
    const random = seededRandom(11);
    // Each email lists the same contacts in its own order, as real recipient lists do.
    const shuffled = () => [...contacts].sort(() => random() - 0.5);
    const opened = await fixtures.email({ organizationId: org, to: shuffled() });
    const sending: FixtureEmail[] = [];
    for (let i = 0; i < 24; i++) {
      sending.push(await fixtures.email({ organizationId: org, to: shuffled(), status: "sending" }));
    }
    const sentAt = new Date("2026-03-01T08:00:00.000Z");
    const at = "2026-03-01T09:00:00.000Z";
    const work = [
      ...sending.map(
        (target) => () => storage.emails.markSent(org, target.id, { providerMessageId: "p", sentAt }),
      ),
      ...Array.from(
        { length: 8 },
        () => () => storage.tracking.recordEvents([openHit(opened, at), openHit(opened, at)]),
      ),
    ].sort(() => random() - 0.5);
    const outcomes = await Promise.allSettled(work.map((run) => run()));
    expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);
    for (const address of contacts) {
      expect(await storage.stats.getContact(org, address)).toMatchObject({
        totalEmails: 25,
        totalOpens: 16,
      });
    }
  });
}
