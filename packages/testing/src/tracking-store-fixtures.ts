/**
 * Rows and hits for the tracking store contract, written through the storage port only, so the
 * rollups under test are the ones the store itself maintains.
 */

import { noMachineSignal } from "@mailpulse/core";
import type {
  DeliveryRecord,
  Storage,
  TrackingEventRecord,
  TrackingHit,
  WebhookEventType,
} from "@mailpulse/core/storage";

/** A stored email with what hits need to name it. */
export interface FixtureEmail {
  id: string;
  organizationId: string;
  campaignId: string | null;
  linkIds: string[];
}

/** What {@link trackingFixtures} writes an email from. */
export interface FixtureEmailSpec {
  organizationId: string;
  campaignId?: string | null;
  /** Lowercased addresses, as the email service stores them. */
  to: string[];
  cc?: string[];
  bcc?: string[];
  /** One link per URL, in this order. */
  links?: string[];
  /** `sent` (default) at `sentAt`, still `sending`, or `failed`. */
  status?: "sent" | "sending" | "failed";
  sentAt?: string;
}

/** Organizations, campaigns, emails and webhooks written by {@link trackingFixtures}. */
export type TrackingFixtures = ReturnType<typeof trackingFixtures>;

/** The storage of the running test and its fixtures; set afresh before each test. */
export interface TrackingContractContext {
  storage: Storage;
  fixtures: TrackingFixtures;
}

/** Writes organizations, campaigns, emails and webhooks for one storage, with readable unique ids. */
export function trackingFixtures(storage: Storage) {
  let sequence = 0;
  // A run-wide prefix too: some storages share one database between tests.
  const run = Math.random().toString(36).slice(2, 8);
  const nextId = (prefix: string) => `${prefix}-${run}-${String(++sequence).padStart(4, "0")}`;

  return {
    async organization(name = "Acme"): Promise<string> {
      const id = nextId("org");
      await storage.organizations.create({ id, name, createdAt: new Date("2026-01-01T00:00:00.000Z") });
      return id;
    },

    async campaign(organizationId: string, name = "Campaign"): Promise<string> {
      const id = nextId("cmp");
      await storage.campaigns.create(
        { id, organizationId, name, createdAt: new Date("2026-01-01T00:00:00.000Z"), archivedAt: null },
        {},
      );
      return id;
    },

    async email(spec: FixtureEmailSpec): Promise<FixtureEmail> {
      const id = nextId("eml");
      const sentAt = new Date(spec.sentAt ?? "2026-03-01T08:00:00.000Z");
      const recipient = (kind: "to" | "cc" | "bcc") => (address: string) => ({
        kind,
        address,
        display: address,
      });
      const links = (spec.links ?? []).map((url) => ({ id: nextId("lnk"), url }));
      const record = {
        id,
        organizationId: spec.organizationId,
        campaignId: spec.campaignId ?? null,
        trackingId: nextId("trk"),
        origin: "send" as const,
        fromAddress: "sender@acme.example",
        sender: "sender@acme.example",
        replyTo: null,
        subject: `Subject of ${id}`,
        metadata: null,
        trackOpens: true,
        trackClicks: true,
        recipients: [
          ...spec.to.map(recipient("to")),
          ...(spec.cc ?? []).map(recipient("cc")),
          ...(spec.bcc ?? []).map(recipient("bcc")),
        ],
        links,
        createdAt: new Date(sentAt.getTime() - 1000),
      };
      await storage.emails.create(record);
      const status = spec.status ?? "sent";
      if (status === "sent") {
        await storage.emails.markSent(spec.organizationId, id, { providerMessageId: `p-${id}`, sentAt });
      } else if (status === "failed") {
        await storage.emails.markFailed(spec.organizationId, id, "550 no such user");
      }
      return {
        id,
        organizationId: spec.organizationId,
        campaignId: record.campaignId,
        linkIds: links.map((link) => link.id),
      };
    },

    async webhook(organizationId: string, events: WebhookEventType[], isActive = true): Promise<string> {
      const id = nextId("whk");
      const at = new Date("2026-01-01T00:00:00.000Z");
      await storage.webhooks.create(
        {
          id,
          organizationId,
          url: `https://hooks.example.com/${id}`,
          events,
          secret: "whsec_test",
          previousSecret: null,
          previousSecretExpiresAt: null,
          isActive,
          failingSince: null,
          createdAt: at,
          updatedAt: at,
        },
        100,
      );
      return id;
    },
  };
}

/** An open of `email` at `at`; `extra` overrides the event's defaults (a reader's, from 203.0.113.0). */
export function openHit(
  email: FixtureEmail,
  at: string,
  extra: Partial<TrackingEventRecord> = {},
): TrackingHit {
  return { event: eventOf(email, "open", at, null, extra) };
}

/** A click of the email's link number `link` at `at`; `extra` overrides the event's defaults. */
export function clickHit(
  email: FixtureEmail,
  link: number,
  at: string,
  extra: Partial<TrackingEventRecord> = {},
): TrackingHit {
  const linkId = email.linkIds[link];
  if (linkId === undefined) throw new Error(`The email has no link ${link}`);
  return { event: eventOf(email, "click", at, linkId, extra) };
}

/** Every queued delivery of the organization (all its webhooks), oldest first. */
export async function deliveriesOf(storage: Storage, organizationId: string): Promise<DeliveryRecord[]> {
  const deliveries: DeliveryRecord[] = [];
  for (const webhook of await storage.webhooks.list(organizationId)) {
    deliveries.push(...(await storage.deliveries.list(organizationId, webhook.id, { limit: 100_000 })));
  }
  return deliveries.sort((a, b) => a.id - b.id);
}

function eventOf(
  email: FixtureEmail,
  type: "open" | "click",
  at: string,
  linkId: string | null,
  extra: Partial<TrackingEventRecord> = {},
): TrackingEventRecord {
  return {
    type,
    organizationId: email.organizationId,
    emailId: email.id,
    campaignId: email.campaignId,
    linkId,
    occurredAt: new Date(at),
    ip: "203.0.113.0",
    userAgent: "Mozilla/5.0",
    method: "GET",
    msSinceSent: null,
    verdict: noMachineSignal,
    ...extra,
  };
}

/** A small deterministic pseudo-random generator (mulberry32), so shuffled batches are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The UTC day number of an ISO instant: whole days since the epoch, the bucket every storage
 * keys its daily counters by (DESIGN.md, Data: day buckets by integer division).
 */
export function dayOf(iso: string): number {
  return Math.floor(new Date(iso).getTime() / 86_400_000);
}

/** The time range from `start` to `end`, both included. */
export function rangeOf(start: string, end: string): { start: Date; end: Date } {
  return { start: new Date(start), end: new Date(end) };
}

/** A new organization with one campaign, and the writer of that campaign's emails. */
export interface FixtureCampaign {
  org: string;
  campaign: string;
  /** {@link TrackingFixtures}' `email`, in this organization and campaign. */
  addEmail(spec: Omit<FixtureEmailSpec, "organizationId" | "campaignId">): Promise<FixtureEmail>;
}

/** Writes an organization and a campaign: the start of every case about one campaign's mail. */
export async function newCampaign(fixtures: TrackingFixtures): Promise<FixtureCampaign> {
  const org = await fixtures.organization();
  const campaign = await fixtures.campaign(org);
  return {
    org,
    campaign,
    addEmail: (spec) => fixtures.email({ ...spec, organizationId: org, campaignId: campaign }),
  };
}
