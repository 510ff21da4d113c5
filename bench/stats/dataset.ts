/**
 * A deterministic statistics fixture: one organization, its campaigns, emails, recipients, links
 * and tracking events, with every rollup the stores maintain (per-email counters, per-link clicks,
 * per-contact and per-day totals, each with its human twin) computed here from the same events,
 * exactly as the email and tracking stores would have counted them one by one.
 *
 * The emails, recipients and links depend only on `emails`/`contacts`/`campaigns`; the events on
 * `events` too, so a 100k-event and a 1M-event dataset share everything but their history. Each
 * event's verdict comes from a PRNG stream of its own, so the emails, events and times are the
 * same as before the verdicts existed and the older results still compare.
 */
import type { HitVerdict } from "../../packages/core/src/measurement/hit-verdict.js";
import { dayMs, utcDayOf } from "../../packages/core/src/util/utc-day.js";

/** Sizes of a dataset. */
export interface DatasetSize {
  emails: number;
  contacts: number;
  campaigns: number;
  events: number;
}

/** "Now" of the fixture; emails are sent over the 180 days before it. */
export const benchNow = Date.parse("2026-06-30T12:00:00.000Z");

const spanMs = 180 * dayMs;
const linksPerEmail = 3;

/**
 * The verdicts events get, one per source, with a reason worded as the classifier words it
 * (packages/core/src/measurement/classify-hit.ts). Events store an index into this list.
 */
export const benchVerdicts = [
  { machine: false, source: "human", reasons: ["no machine signal"] },
  {
    machine: true,
    source: "apple_privacy",
    reasons: ["Apple Mail Privacy Protection proxy address and user agent"],
  },
  {
    machine: false,
    source: "image_proxy",
    reasons: ["Gmail image proxy, fetching the pixel for a reader who opened the message"],
  },
  {
    machine: true,
    source: "security_scanner",
    reasons: ["address of the Microsoft Exchange Online Protection mail security gateway"],
  },
  {
    machine: true,
    source: "bot",
    reasons: ['user agent of a bot, script or link preview ("python-requests")'],
  },
] as const satisfies readonly HitVerdict[];

/** Index of a verdict in {@link benchVerdicts}. */
type VerdictIndex = 0 | 1 | 2 | 3 | 4;
const human: VerdictIndex = 0;
const applePrivacy: VerdictIndex = 1;
const imageProxy: VerdictIndex = 2;
const securityScanner: VerdictIndex = 3;
const bot: VerdictIndex = 4;

/**
 * Cumulative shares of the machine and proxy sources among opens and among clicks; the rest is
 * `human`. Round figures, not measured ones: enough of each source that human figures differ
 * clearly from raw ones. Only opens come from Apple's prefetch or an image proxy, and only clicks
 * from a scanner, as the classifier decides them (docs/measurement.md).
 */
const openMix: ReadonlyArray<readonly [upTo: number, verdict: VerdictIndex]> = [
  [0.35, applePrivacy],
  [0.45, imageProxy],
  [0.48, bot],
];
const clickMix: ReadonlyArray<readonly [upTo: number, verdict: VerdictIndex]> = [
  [0.15, securityScanner],
  [0.18, bot],
];

/** Whether the verdict of index `verdict` is a machine's: those hits stay out of human figures. */
export function isMachineVerdict(verdict: number): boolean {
  return benchVerdicts[verdict]?.machine ?? false;
}

/** mulberry32: a tiny seeded PRNG, so every run builds the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface BenchEmail {
  id: string;
  campaignIndex: number;
  status: "sent" | "failed";
  /** Lowercased `to` addresses (the first is the email's `recipient`). */
  to: string[];
  cc: string | null;
  createdAt: number;
  sentAt: number | null;
  openCount: number;
  clickCount: number;
  firstOpenedAt: number | null;
  firstClickedAt: number | null;
  /** The same four over hits whose verdict is not machine, as the tracking store counts them. */
  humanOpenCount: number;
  humanClickCount: number;
  /** First human hit of either kind (a human click also means a person opened the email). */
  humanFirstOpenedAt: number | null;
  humanFirstClickedAt: number | null;
  /** Per link (3 each): its URL and clicks. */
  linkUrls: string[];
  linkClicks: number[];
}

export interface BenchContact {
  totalEmails: number;
  totalOpens: number;
  totalClicks: number;
  humanOpens: number;
  humanClicks: number;
  firstSeen: number;
  lastActivity: number;
}

export interface BenchDaily {
  campaignIndex: number;
  day: number;
  emails: number;
  opens: number;
  clicks: number;
  humanOpens: number;
  humanClicks: number;
}

/** Events as columns (a million objects would dominate the seeding time), ordered by time. */
export interface BenchEvents {
  count: number;
  emailIndex: Int32Array;
  /** 0 open, 1 click. */
  type: Uint8Array;
  /** Index of the clicked link within its email (0..2), -1 for opens. */
  linkIndex: Int8Array;
  occurredAt: Float64Array;
  /** Index of the event's verdict in {@link benchVerdicts}. */
  verdict: Uint8Array;
}

export interface Dataset {
  size: DatasetSize;
  organizationId: string;
  campaignIds: string[];
  emails: BenchEmail[];
  events: BenchEvents;
  contacts: Map<string, BenchContact>;
  daily: BenchDaily[];
}

/** The address of contact `index`. */
export function contactAddress(index: number): string {
  return `contact${index}@example${index % 97}.test`;
}

/** Campaign id of index `i`, or '' for standalone emails (index -1), as the daily rollup keys it. */
export function campaignKey(campaignIds: string[], index: number): string {
  return index < 0 ? "" : (campaignIds[index] ?? "");
}

function buildEmails(size: DatasetSize): BenchEmail[] {
  const next = random(0x5eed);
  const emails: BenchEmail[] = [];
  for (let i = 0; i < size.emails; i++) {
    // Time-ordered like production ids: email i is sent after email i-1, over 180 days.
    const sentAt = benchNow - spanMs + Math.floor(((i + next()) * spanMs) / size.emails);
    const campaignIndex = next() < 0.1 ? -1 : Math.floor(next() * size.campaigns);
    const first = i % size.contacts;
    const to = [contactAddress(first)];
    if (next() < 0.1) {
      const second = (i * 31 + 17) % size.contacts;
      if (second !== first) to.push(contactAddress(second));
    }
    const failed = next() < 0.02;
    const pool = campaignIndex < 0 ? 5 : 20;
    const linkUrls = Array.from(
      { length: linksPerEmail },
      () =>
        `https://shop.example/${campaignIndex < 0 ? "account" : `c${campaignIndex}`}/p${Math.floor(next() * pool)}`,
    );
    emails.push({
      id: `email-${String(i).padStart(7, "0")}`,
      campaignIndex,
      status: failed ? "failed" : "sent",
      to,
      cc: next() < 0.2 ? `cc${i % 1000}@example.org` : null,
      createdAt: sentAt - 500,
      sentAt: failed ? null : sentAt,
      openCount: 0,
      clickCount: 0,
      firstOpenedAt: null,
      firstClickedAt: null,
      humanOpenCount: 0,
      humanClickCount: 0,
      humanFirstOpenedAt: null,
      humanFirstClickedAt: null,
      linkUrls,
      linkClicks: [0, 0, 0],
    });
  }
  return emails;
}

function buildEvents(emails: BenchEmail[], count: number): BenchEvents {
  const next = random(0xe7e7);
  // 70% of sent emails ever get an open or a click; the rest stay untouched.
  const engaged = emails.flatMap((email, index) => (email.status === "sent" && next() < 0.7 ? [index] : []));
  const raw = {
    emailIndex: new Int32Array(count),
    type: new Uint8Array(count),
    linkIndex: new Int8Array(count),
    occurredAt: new Float64Array(count),
  };
  for (let j = 0; j < count; j++) {
    const emailIndex = engaged[Math.floor(next() * engaged.length)] ?? 0;
    const sentAt = emails[emailIndex]?.sentAt ?? benchNow;
    const click = next() < 0.25;
    raw.emailIndex[j] = emailIndex;
    raw.type[j] = click ? 1 : 0;
    raw.linkIndex[j] = click ? Math.floor(next() * linksPerEmail) : -1;
    // Most opens come within hours of the send, a long tail over two weeks.
    raw.occurredAt[j] = Math.min(sentAt + Math.floor(next() ** 3 * 14 * dayMs), benchNow);
  }
  // Recorded in time order, as a live system appends them.
  const order = Array.from({ length: count }, (_, j) => j).sort(
    (a, b) => (raw.occurredAt[a] ?? 0) - (raw.occurredAt[b] ?? 0) || a - b,
  );
  const events: BenchEvents = {
    count,
    emailIndex: new Int32Array(count),
    type: new Uint8Array(count),
    linkIndex: new Int8Array(count),
    occurredAt: new Float64Array(count),
    verdict: new Uint8Array(count),
  };
  order.forEach((from, to) => {
    events.emailIndex[to] = raw.emailIndex[from] ?? 0;
    events.type[to] = raw.type[from] ?? 0;
    events.linkIndex[to] = raw.linkIndex[from] ?? -1;
    events.occurredAt[to] = raw.occurredAt[from] ?? 0;
  });
  judgeEvents(events);
  return events;
}

/** Gives every event a verdict drawn from its type's mix, in recording order. */
function judgeEvents(events: BenchEvents): void {
  // A stream of its own: drawing from the events' stream would move every later event.
  const next = random(0x7e4d1c7);
  for (let j = 0; j < events.count; j++) {
    events.verdict[j] = drawVerdict(events.type[j] === 1 ? clickMix : openMix, next());
  }
}

function drawVerdict(mix: ReadonlyArray<readonly [number, VerdictIndex]>, draw: number): VerdictIndex {
  return mix.find(([upTo]) => draw < upTo)?.[1] ?? human;
}

/** Builds the dataset and its rollups. */
export function buildDataset(size: DatasetSize): Dataset {
  const campaignIds = Array.from(
    { length: size.campaigns },
    (_, c) => `campaign-${String(c).padStart(4, "0")}`,
  );
  const emails = buildEmails(size);
  const events = buildEvents(emails, size.events);
  const contacts = new Map<string, BenchContact>();
  const daily = new Map<string, BenchDaily>();
  for (const email of emails) countSend(email, contacts, daily);
  for (let j = 0; j < events.count; j++) countHit(events, j, emails, contacts, daily);
  return {
    size,
    organizationId: "org-bench",
    campaignIds,
    emails,
    events,
    contacts,
    daily: [...daily.values()],
  };
}

/** The daily rollup row of (campaign, UTC day of `at`), created at zero when missing. */
function dayRow(daily: Map<string, BenchDaily>, campaignIndex: number, at: number): BenchDaily {
  const day = utcDayOf(at);
  const key = `${campaignIndex}:${day}`;
  let row = daily.get(key);
  if (!row) {
    row = { campaignIndex, day, emails: 0, opens: 0, clicks: 0, humanOpens: 0, humanClicks: 0 };
    daily.set(key, row);
  }
  return row;
}

/** A sent email's share of the daily and contact rollups, as the email store records a send. */
function countSend(email: BenchEmail, contacts: Map<string, BenchContact>, daily: Map<string, BenchDaily>) {
  if (email.sentAt === null) return;
  dayRow(daily, email.campaignIndex, email.sentAt).emails++;
  for (const address of new Set(email.to)) {
    const contact = contacts.get(address);
    if (!contact) {
      contacts.set(address, {
        totalEmails: 1,
        totalOpens: 0,
        totalClicks: 0,
        humanOpens: 0,
        humanClicks: 0,
        firstSeen: email.sentAt,
        lastActivity: email.sentAt,
      });
    } else {
      contact.totalEmails++;
      contact.firstSeen = Math.min(contact.firstSeen, email.sentAt);
      contact.lastActivity = Math.max(contact.lastActivity, email.sentAt);
    }
  }
}

/**
 * Event `j`'s share of every rollup, as the tracking store records a hit
 * (packages/core/src/kysely/tracking/batch-plan.ts): the raw counters count every hit, the human
 * ones only hits whose verdict is not machine. Last activity follows every hit, machine or not.
 */
function countHit(
  events: BenchEvents,
  j: number,
  emails: BenchEmail[],
  contacts: Map<string, BenchContact>,
  daily: Map<string, BenchDaily>,
) {
  const email = emails[events.emailIndex[j] ?? 0]!;
  const at = events.occurredAt[j] ?? 0;
  const click = events.type[j] === 1;
  const byPerson = !isMachineVerdict(events.verdict[j] ?? human);
  countOnEmail(email, at, click, byPerson);
  if (click) {
    const link = events.linkIndex[j] ?? 0;
    email.linkClicks[link] = (email.linkClicks[link] ?? 0) + 1;
  }
  const day = dayRow(daily, email.campaignIndex, at);
  if (click) day.clicks++;
  else day.opens++;
  if (byPerson && click) day.humanClicks++;
  if (byPerson && !click) day.humanOpens++;
  // Each address once, however often it is listed: the store joins distinct recipients.
  for (const address of new Set(email.to)) {
    const contact = contacts.get(address)!;
    if (click) contact.totalClicks++;
    else contact.totalOpens++;
    if (byPerson && click) contact.humanClicks++;
    if (byPerson && !click) contact.humanOpens++;
    contact.lastActivity = Math.max(contact.lastActivity, at);
  }
}

/** A hit on the email's counters. Any hit marks the email opened, a human one opened by a person. */
function countOnEmail(email: BenchEmail, at: number, click: boolean, byPerson: boolean) {
  email.firstOpenedAt = Math.min(email.firstOpenedAt ?? at, at);
  if (click) {
    email.clickCount++;
    email.firstClickedAt = Math.min(email.firstClickedAt ?? at, at);
  } else {
    email.openCount++;
  }
  if (!byPerson) return;
  email.humanFirstOpenedAt = Math.min(email.humanFirstOpenedAt ?? at, at);
  if (click) {
    email.humanClickCount++;
    email.humanFirstClickedAt = Math.min(email.humanFirstClickedAt ?? at, at);
  } else {
    email.humanOpenCount++;
  }
}
