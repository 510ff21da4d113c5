import { createMailPulse, memoryProvider, type Storage } from "@mailpulse/core";
import type { TrackingStore } from "@mailpulse/core/storage";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { createTestClock } from "@mailpulse/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTrackingUrls } from "../../src/routes/tracking-urls.js";
import { createUnsubscribeUrl } from "../../src/routes/unsubscribe-urls.js";
import { createCampaignService } from "../../src/services/campaign-service.js";
import { createCampaignResolver } from "../../src/services/campaigns/resolve-campaign.js";
import { createEmailService } from "../../src/services/email-service.js";
import { createTrackingLookups } from "../../src/services/tracking/tracking-lookups.js";

/**
 * A real in-memory SQLite storage whose tracking lookups are counted: the tests assert how often
 * the database is asked, which is the whole point of the cache.
 */
async function countedStorage() {
  const real = sqliteStorage({ filename: ":memory:" });
  await real.migrate();
  const reads = { findEmail: [] as string[], findLink: [] as string[], emailCalls: 0 };
  const tracking: TrackingStore = {
    ...real.tracking,
    findEmails(trackingIds) {
      reads.findEmail.push(...trackingIds);
      reads.emailCalls++;
      return real.tracking.findEmails(trackingIds);
    },
    findLinks(linkIds) {
      reads.findLink.push(...linkIds);
      return real.tracking.findLinks(linkIds);
    },
  };
  const storage: Storage = { ...real, tracking };
  return { storage, reads };
}

let storage: Storage;
let reads: Awaited<ReturnType<typeof countedStorage>>["reads"];
beforeEach(async () => {
  ({ storage, reads } = await countedStorage());
  await storage.organizations.create({ id: "org", name: "Acme", createdAt: new Date("2026-05-01") });
});
afterEach(async () => {
  await storage.close();
});

let emailsCreated = 0;
/** Stores an email (sent unless `sending`) with links `l-<n>-0..`; returns its ids. */
async function storedEmail(options: { sending?: boolean; links?: number } = {}) {
  const n = ++emailsCreated;
  const id = `email-${n}`;
  const trackingId = `t-${n}`;
  const links = Array.from({ length: options.links ?? 0 }, (_, i) => ({
    id: `l-${n}-${i}`,
    url: `https://example.com/${n}/${i}`,
  }));
  const at = new Date("2026-05-01T09:00:00.000Z");
  await storage.emails.create(
    {
      id,
      organizationId: "org",
      campaignId: null,
      trackingId,
      origin: "send",
      fromAddress: "a@acme.example",
      sender: "a@acme.example",
      replyTo: null,
      subject: `Subject ${n}`,
      metadata: null,
      trackOpens: true,
      trackClicks: true,
      recipients: [{ kind: "to", address: `r${n}@example.com`, display: `r${n}@example.com` }],
      links,
      createdAt: at,
    },
    options.sending ? undefined : { providerMessageId: `p-${n}`, sentAt: at },
  );
  return { id, trackingId, linkIds: links.map((link) => link.id) };
}

describe("tracking lookups: emails", () => {
  it("reads a sent email from storage once, then from memory", async () => {
    const lookups = createTrackingLookups(storage.tracking, 100);
    const email = await storedEmail();
    const first = await lookups.email(email.trackingId);
    expect(first).toMatchObject({ id: email.id, trackingId: email.trackingId, status: "sent" });
    expect(await lookups.email(email.trackingId)).toEqual(first);
    expect(await lookups.email(email.trackingId)).toEqual(first);
    expect(reads.findEmail).toEqual([email.trackingId]);
  });

  it("looks up the misses of one event-loop turn in one storage call", async () => {
    const lookups = createTrackingLookups(storage.tracking, 100);
    const [a, b] = [await storedEmail(), await storedEmail()];
    const found = await Promise.all([
      lookups.email(a.trackingId),
      lookups.email(b.trackingId),
      lookups.email(a.trackingId),
      lookups.email("unknown"),
    ]);
    expect(found.map((email) => email?.id)).toEqual([a.id, b.id, a.id, undefined]);
    expect(reads.emailCalls).toBe(1);
    expect(reads.findEmail).toEqual([a.trackingId, b.trackingId, "unknown"]);
  });

  it("never caches an email that is not sent yet: once sent, the next lookup sees it sent", async () => {
    const lookups = createTrackingLookups(storage.tracking, 100);
    const email = await storedEmail({ sending: true });
    expect((await lookups.email(email.trackingId))?.status).toBe("sending");
    expect((await lookups.email(email.trackingId))?.status).toBe("sending");
    expect(reads.findEmail).toHaveLength(2);

    await storage.emails.markSent("org", email.id, { providerMessageId: "p", sentAt: new Date() });
    expect((await lookups.email(email.trackingId))?.status).toBe("sent");
    expect((await lookups.email(email.trackingId))?.status).toBe("sent");
    expect(reads.findEmail).toHaveLength(3);
  });

  it("keeps at most cacheSize emails, evicting the least recently used", async () => {
    const lookups = createTrackingLookups(storage.tracking, 2);
    const [a, b, c] = [await storedEmail(), await storedEmail(), await storedEmail()];
    await lookups.email(a.trackingId);
    await lookups.email(b.trackingId);
    await lookups.email(a.trackingId); // a is now more recent than b
    await lookups.email(c.trackingId); // evicts b
    expect(reads.findEmail).toEqual([a.trackingId, b.trackingId, c.trackingId]);

    await lookups.email(a.trackingId);
    await lookups.email(c.trackingId);
    expect(reads.findEmail).toHaveLength(3);
    expect((await lookups.email(b.trackingId))?.id).toBe(b.id);
    expect(reads.findEmail).toEqual([a.trackingId, b.trackingId, c.trackingId, b.trackingId]);
  });

  it("caches nothing with a cacheSize of 0, and still answers", async () => {
    const lookups = createTrackingLookups(storage.tracking, 0);
    const email = await storedEmail();
    expect((await lookups.email(email.trackingId))?.id).toBe(email.id);
    expect((await lookups.email(email.trackingId))?.id).toBe(email.id);
    expect(await lookups.email("unknown")).toBeUndefined();
    expect(await lookups.email("unknown")).toBeUndefined();
    expect(reads.findEmail).toEqual([email.trackingId, email.trackingId, "unknown", "unknown"]);
  });
});

describe("tracking lookups: unknown ids", () => {
  it("answers undefined for an unknown id and never turns it into a positive entry", async () => {
    const lookups = createTrackingLookups(storage.tracking, 100);
    expect(await lookups.email("nope")).toBeUndefined();
    expect(await lookups.email("nope")).toBeUndefined();
    expect(await lookups.link("nope")).toBeUndefined();
    expect(await lookups.link("nope")).toBeUndefined();
  });

  it("remembers misses in a bounded cache a tenth of cacheSize, oldest forgotten first", async () => {
    const lookups = createTrackingLookups(storage.tracking, 20);
    // Room for two misses.
    await lookups.email("u1");
    await lookups.email("u2");
    await lookups.email("u1");
    await lookups.email("u2");
    expect(reads.findEmail).toEqual(["u1", "u2"]);
    await lookups.email("u3"); // forgets u1
    await lookups.email("u1");
    expect(reads.findEmail).toEqual(["u1", "u2", "u3", "u1"]);
  });

  it("keeps a flood of unknown ids from evicting known emails", async () => {
    const lookups = createTrackingLookups(storage.tracking, 10);
    const email = await storedEmail();
    await lookups.email(email.trackingId);
    for (let i = 0; i < 50; i++) await lookups.email(`junk-${i}`);
    const before = reads.findEmail.length;
    expect((await lookups.email(email.trackingId))?.id).toBe(email.id);
    expect(reads.findEmail).toHaveLength(before);
  });
});

describe("tracking lookups: links", () => {
  it("reads a link of a sent email once, with its URL and email", async () => {
    const lookups = createTrackingLookups(storage.tracking, 100);
    const email = await storedEmail({ links: 2 });
    const link = await lookups.link(email.linkIds[1]!);
    expect(link).toEqual({
      id: email.linkIds[1],
      url: `https://example.com/${email.id.slice("email-".length)}/1`,
      email: expect.objectContaining({ id: email.id, status: "sent" }),
    });
    expect(await lookups.link(email.linkIds[1]!)).toEqual(link);
    expect(reads.findLink).toEqual([email.linkIds[1]]);
  });

  it("does not cache a link whose email is not sent yet", async () => {
    const lookups = createTrackingLookups(storage.tracking, 100);
    const email = await storedEmail({ sending: true, links: 1 });
    expect((await lookups.link(email.linkIds[0]!))?.email.status).toBe("sending");
    await storage.emails.markSent("org", email.id, { providerMessageId: "p", sentAt: new Date() });
    expect((await lookups.link(email.linkIds[0]!))?.email.status).toBe("sent");
    expect(reads.findLink).toHaveLength(2);
  });
});

describe("tracking lookups: remember() after a send", () => {
  const clock = createTestClock("2026-05-02T08:00:00.000Z");
  let sequence = 0;
  const deps = () => ({ storage, clock, createId: () => `id-${String(++sequence).padStart(4, "0")}` });

  function emailService(onSent: ReturnType<typeof createTrackingLookups>["remember"]) {
    const campaigns = createCampaignService(deps(), { limits: () => ({}), detailEmailLimit: 10 });
    const service = createEmailService(deps(), {
      mailProvider: memoryProvider(),
      resolveCampaign: createCampaignResolver(deps(), () => ({})),
      baseUrl: "http://mail.test",
      trackingUrls: createTrackingUrls("/api"),
      unsubscribeUrl: createUnsubscribeUrl("/api"),
      signingKey: { key: async () => new Uint8Array(32) },
      deliveryFeedback: { recordBounce: async () => false },
      platformDomain: "mail.test",
      logger: { info: () => {}, error: () => {} },
      onSent,
    });
    return { campaigns, service };
  }

  it("fills the cache on send: the email and its links are served without a storage read, as stored", async () => {
    const lookups = createTrackingLookups(storage.tracking, 100);
    const { campaigns, service } = emailService(lookups.remember);
    const campaign = await campaigns.create("org", { name: "Launch" });
    const sent = await service.send("org", {
      from: "Ann <ann@acme.example>",
      to: ["Bob <Bob@Example.com>", "carol@example.com"],
      cc: ["dave@example.com"],
      subject: "Hello",
      htmlContent: '<p><a href="https://example.com/a">a</a> <a href="https://example.com/b">b</a></p>',
      campaignId: campaign.id,
    });
    const cachedEmail = await lookups.email(sent.emailTrackingId);
    const cachedLinks = await Promise.all(sent.links.map((link) => lookups.link(link.trackingId)));
    expect(reads).toEqual({ findEmail: [], findLink: [], emailCalls: 0 });

    // What the cache holds is exactly what the database would have answered.
    expect(cachedEmail).toEqual((await storage.tracking.findEmails([sent.emailTrackingId]))[0]);
    expect(cachedEmail).toMatchObject({ campaignId: campaign.id, recipient: "bob@example.com" });
    for (const [index, link] of sent.links.entries()) {
      expect(cachedLinks[index]).toEqual((await storage.tracking.findLinks([link.trackingId]))[0]);
    }
    expect(cachedLinks.map((link) => link?.url)).toEqual(["https://example.com/a", "https://example.com/b"]);
  });

  it("fills the cache on register too", async () => {
    const lookups = createTrackingLookups(storage.tracking, 100);
    const { service } = emailService(lookups.remember);
    const registered = await service.register("org", {
      to: ["Erin@Example.com"],
      subject: "Registered",
      htmlContent: '<a href="https://example.com/r">r</a>',
    });
    const cachedEmail = await lookups.email(registered.emailTrackingId);
    const cachedLink = await lookups.link(registered.links[0]!.trackingId);
    expect(reads).toEqual({ findEmail: [], findLink: [], emailCalls: 0 });
    expect(cachedEmail).toEqual((await storage.tracking.findEmails([registered.emailTrackingId]))[0]);
    expect(cachedLink).toEqual((await storage.tracking.findLinks([registered.links[0]!.trackingId]))[0]);
  });

  it("ignores an email that is not sent", async () => {
    const lookups = createTrackingLookups(storage.tracking, 100);
    const email = await storedEmail({ sending: true });
    const tracked = (await storage.tracking.findEmails([email.trackingId]))[0];
    lookups.remember(tracked!, []);
    reads.findEmail.length = 0;
    await lookups.email(email.trackingId);
    expect(reads.findEmail).toEqual([email.trackingId]);
  });

  it("lets the first pixel and click after a send through createMailPulse skip the database lookups", async () => {
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "http://mail.test",
      mailProvider: memoryProvider(),
      logger: { info: () => {}, error: () => {} },
    });
    const sent = await mailpulse.emails.send("org", {
      from: "a@acme.example",
      to: "b@example.com",
      subject: "S",
      htmlContent: '<a href="https://example.com/x">x</a>',
    });
    expect((await mailpulse.handler(new Request(sent.pixelUrl))).status).toBe(200);
    const click = await mailpulse.handler(new Request(sent.links[0]!.trackingUrl));
    expect(click.headers.get("location")).toBe("https://example.com/x");
    expect(reads).toEqual({ findEmail: [], findLink: [], emailCalls: 0 });
    await mailpulse.stop();
    const stored = (await storage.emails.list("org", 1))[0];
    expect(stored).toMatchObject({ openCount: 1, clickCount: 1 });
  });
});
