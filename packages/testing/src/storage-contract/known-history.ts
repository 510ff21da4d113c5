/**
 * A small, fully known history for the read-model contracts, seeded through the storage port
 * only (`emails.create`/`markSent`/`markFailed`, `tracking.recordEvents`), never raw SQL, so the
 * rollups under test are the ones the store under test maintains. Every expected number in the
 * contracts is derived by hand from the table in this file's `seedKnownHistory`.
 */
import { type HitVerdict, noMachineSignal } from "@mailpulse/core";
import type { NewEmailRecord, Storage } from "@mailpulse/core/storage";
import { createTestClock, type TestClock } from "../test-clock.js";
import { clickHit, openHit } from "../tracking-store-fixtures.js";

/** "Now" of every test: period `30d` starts 2026-02-09T00:00:00.000Z, `7d` 2026-03-04. */
export const now = "2026-03-10T15:00:00.000Z";

let sequence = 0;
/** Ids sortable by creation order, so ties broken by id are predictable. */
const nextId = (prefix: string) => `${prefix}-${String(++sequence).padStart(6, "0")}`;

/** A seeded email: its id and the tracking ids of its links, in the order given. */
export interface SeededEmail {
  id: string;
  organizationId: string;
  campaignId: string | null;
  linkIds: string[];
}

/** An email the history writes: who, what, when, and through which store call. */
export interface EmailSpec {
  organizationId: string;
  campaignId?: string | null;
  /** As the caller wrote them; stored lowercased like the email service does. */
  to: string[];
  cc?: string[];
  subject: string;
  links?: string[];
  /** Sent at this instant (created 1 s earlier). */
  sentAt: string;
  /** `create`: stored as sent at once; `markSent`: created `sending`, then marked sent. */
  via?: "create" | "markSent";
}

/** Writes emails and events through the storage port. */
export function historyWriter(storage: Storage) {
  async function organization(name: string): Promise<string> {
    const id = nextId("org");
    await storage.organizations.create({ id, name, createdAt: new Date("2026-01-01T00:00:00.000Z") });
    return id;
  }

  async function campaign(organizationId: string, name: string, createdAt = "2026-01-01T00:00:00.000Z") {
    const id = nextId("cmp");
    await storage.campaigns.create(
      { id, organizationId, name, createdAt: new Date(createdAt), archivedAt: null },
      {},
    );
    return id;
  }

  function record(spec: Omit<EmailSpec, "sentAt">, createdAt: Date): NewEmailRecord {
    const id = nextId("eml");
    const recipients = [
      ...spec.to.map((display) => ({ kind: "to" as const, address: display.toLowerCase(), display })),
      ...(spec.cc ?? []).map((display) => ({ kind: "cc" as const, address: display.toLowerCase(), display })),
    ];
    return {
      id,
      organizationId: spec.organizationId,
      campaignId: spec.campaignId ?? null,
      trackingId: `trk-${id}`,
      origin: "register",
      fromAddress: "news@acme.example",
      sender: "news@acme.example",
      replyTo: null,
      subject: spec.subject,
      metadata: null,
      trackOpens: true,
      trackClicks: true,
      recipients,
      links: (spec.links ?? []).map((url) => ({ id: nextId("lnk"), url })),
      createdAt,
    };
  }

  async function sent(spec: EmailSpec): Promise<SeededEmail> {
    const sentAt = new Date(spec.sentAt);
    const email = record(spec, new Date(sentAt.getTime() - 1000));
    if (spec.via === "markSent") {
      await storage.emails.create(email);
      const marked = await storage.emails.markSent(spec.organizationId, email.id, {
        providerMessageId: `provider-${email.id}`,
        sentAt,
      });
      if (!marked) throw new Error(`markSent refused ${email.id}`);
    } else {
      await storage.emails.create(email, { providerMessageId: null, sentAt });
    }
    return {
      id: email.id,
      organizationId: spec.organizationId,
      campaignId: email.campaignId,
      linkIds: email.links.map((link) => link.id),
    };
  }

  /** An email whose sending failed: counted nowhere. */
  async function failed(spec: Omit<EmailSpec, "sentAt" | "via"> & { createdAt: string }) {
    const email = record(spec, new Date(spec.createdAt));
    await storage.emails.create(email);
    await storage.emails.markFailed(spec.organizationId, email.id, "550 mailbox unavailable");
    return email.id;
  }

  /** An email still being sent (the provider never answered): counted nowhere. */
  async function sending(spec: Omit<EmailSpec, "sentAt" | "via"> & { createdAt: string }) {
    const email = record(spec, new Date(spec.createdAt));
    await storage.emails.create(email);
    return email.id;
  }

  // The history's hits carry no IP or user agent: only their verdicts matter to the read models.
  const unsigned = { ip: null, userAgent: null };

  /** An open; a reader's unless `verdict` says otherwise. */
  async function open(email: SeededEmail, at: string, verdict: HitVerdict = noMachineSignal): Promise<void> {
    await storage.tracking.recordEvents([openHit(email, at, { ...unsigned, verdict })]);
  }

  /** A click; a reader's unless `verdict` says otherwise. */
  async function click(
    email: SeededEmail,
    linkIndex: number,
    at: string,
    verdict: HitVerdict = noMachineSignal,
  ): Promise<void> {
    await storage.tracking.recordEvents([clickHit(email, linkIndex, at, { ...unsigned, verdict })]);
  }

  return { organization, campaign, sent, failed, sending, open, click };
}

/** URLs of the Spring campaign. */
export const urls = {
  a: "https://shop.test/a",
  b: "https://shop.test/b",
  c: "https://shop.test/c",
  x: "https://autumn.test/x",
} as const;

/**
 * Organization Acme:
 *
 * | email | campaign | to (cc)                            | sent (UTC)              | events (UTC)                                   |
 * |-------|----------|------------------------------------|-------------------------|------------------------------------------------|
 * | e1    | Spring   | ann                                | 02-01 10:00             | open 02-01 11:00; click a 02-20 09:00          |
 * | e2    | Spring   | Bob, carol (cc dave)               | 02-09 00:00:00.000      | click a 02-09 00:00:00.000 (no open event)     |
 * | e3    | Spring   | ann                                | 03-10 14:59:59.999      | -                                              |
 * | e4    | Spring   | erin                               | 02-08 23:59:59.999      | open 02-09 00:00:00.000; open 03-01 12:00      |
 * | e5    | Spring   | frank                              | FAILED                  | -                                              |
 * | e6    | Spring   | ann (created sending, marked sent) | 03-05 08:00             | open 03-05 09:00, 03-06 09:00; click c 03-06   |
 * |       |          |                                    |                         | 09:01, c 03-07 10:00, then a 03-07 10:00       |
 * | e7    | Spring   | gina                               | still sending           | -                                              |
 * | e8    | Autumn   | ann (cc zed)                       | 01-10 12:00             | open 01-11 12:00; click x 01-11 12:05          |
 * | e9    | -        | ANN@Example.com                    | 03-08 12:00             | open 03-09 08:00                               |
 * | e10   | -        | first_last                         | 03-10 09:00             | -                                              |
 *
 * Autumn is archived on 01-20; the campaign Empty has no email. Organization Beta has its own
 * "Spring" with one email to ann (03-01 10:00): 3 opens and 1 click, none of which Acme may see.
 * Addresses are `<name>@example.com`.
 */
export async function seedKnownHistory(storage: Storage) {
  const w = historyWriter(storage);
  const acme = await w.organization("Acme");
  const beta = await w.organization("Beta");
  const spring = await w.campaign(acme, "Spring");
  const autumn = await w.campaign(acme, "Autumn");
  const empty = await w.campaign(acme, "Empty");
  const betaSpring = await w.campaign(beta, "Spring");
  const s = { organizationId: acme, campaignId: spring };

  const e8 = await w.sent({
    organizationId: acme,
    campaignId: autumn,
    to: ["ann@example.com"],
    cc: ["zed@example.com"],
    subject: "Autumn sale",
    links: [urls.x],
    sentAt: "2026-01-10T12:00:00.000Z",
  });
  await w.open(e8, "2026-01-11T12:00:00.000Z");
  await w.click(e8, 0, "2026-01-11T12:05:00.000Z");
  await storage.campaigns.archive(acme, autumn, new Date("2026-01-20T00:00:00.000Z"));

  const e1 = await w.sent({
    ...s,
    to: ["ann@example.com"],
    subject: "Spring 1",
    links: [urls.a, urls.b],
    sentAt: "2026-02-01T10:00:00.000Z",
  });
  await w.open(e1, "2026-02-01T11:00:00.000Z");
  const e4 = await w.sent({
    ...s,
    to: ["erin@example.com"],
    subject: "Spring 4",
    sentAt: "2026-02-08T23:59:59.999Z",
  });
  const e2 = await w.sent({
    ...s,
    to: ["Bob@Example.com", "carol@example.com"],
    cc: ["dave@example.com"],
    subject: "Spring 2",
    links: [urls.a],
    sentAt: "2026-02-09T00:00:00.000Z",
  });
  await w.click(e2, 0, "2026-02-09T00:00:00.000Z");
  await w.open(e4, "2026-02-09T00:00:00.000Z");
  await w.failed({
    ...s,
    to: ["frank@example.com"],
    subject: "Spring 5",
    links: ["https://shop.test/failed"],
    createdAt: "2026-02-15T00:00:00.000Z",
  });
  await w.click(e1, 0, "2026-02-20T09:00:00.000Z");
  await w.open(e4, "2026-03-01T12:00:00.000Z");
  const e6 = await w.sent({
    ...s,
    to: ["ann@example.com"],
    subject: "Spring 6",
    links: [urls.a, urls.c],
    sentAt: "2026-03-05T08:00:00.000Z",
    via: "markSent",
  });
  await w.open(e6, "2026-03-05T09:00:00.000Z");
  await w.open(e6, "2026-03-06T09:00:00.000Z");
  await w.click(e6, 1, "2026-03-06T09:01:00.000Z");
  await w.click(e6, 1, "2026-03-07T10:00:00.000Z");
  await w.click(e6, 0, "2026-03-07T10:00:00.000Z");
  const e9 = await w.sent({
    organizationId: acme,
    to: ["ANN@Example.com"],
    subject: "Your receipt",
    sentAt: "2026-03-08T12:00:00.000Z",
  });
  await w.open(e9, "2026-03-09T08:00:00.000Z");
  await w.sending({
    ...s,
    to: ["gina@example.com"],
    subject: "Spring 7",
    links: ["https://shop.test/pending"],
    createdAt: "2026-03-09T00:00:00.000Z",
  });
  await w.sent({
    organizationId: acme,
    to: ["first_last@example.com"],
    subject: "Welcome",
    sentAt: "2026-03-10T09:00:00.000Z",
  });
  const e3 = await w.sent({
    ...s,
    to: ["ann@example.com"],
    subject: "Spring 3",
    links: [urls.b],
    sentAt: "2026-03-10T14:59:59.999Z",
  });

  const b1 = await w.sent({
    organizationId: beta,
    campaignId: betaSpring,
    to: ["ann@example.com"],
    subject: "Beta news",
    links: [urls.a],
    sentAt: "2026-03-01T10:00:00.000Z",
  });
  for (const at of ["2026-03-01T11:00:00.000Z", "2026-03-02T11:00:00.000Z", "2026-03-03T11:00:00.000Z"]) {
    await w.open(b1, at);
  }
  await w.click(b1, 0, "2026-03-03T11:05:00.000Z");

  return { acme, beta, spring, autumn, empty, betaSpring, emails: { e1, e2, e3, e4, e6, e8, e9 } };
}

/** The clock every known-history test starts from. */
export function knownHistoryClock(): TestClock {
  return createTestClock(now);
}
