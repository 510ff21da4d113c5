/**
 * A sanity check of the seeded figures: before anything is timed, the benchmark asks the services
 * for one campaign's totals, its 90-day period and one contact, and compares them with figures
 * counted here straight from the dataset's events. Not from its rollups: a mistake in computing
 * a rollup (dataset.ts), in writing it (rows.ts) or in seeding then fails the run instead of
 * timing queries over wrong numbers. One check per rollup the endpoints read: the per-email
 * counters (campaign detail), the per-day rollup (period stats) and the per-contact rollup.
 */
import type { Storage } from "@mailpulse/core";
import { utcDayOf } from "../../packages/core/src/util/utc-day.js";
import { contactAddress, type Dataset, isMachineVerdict } from "./dataset.js";
import { benchServices, benchTargets } from "./endpoints.js";

/** Opens and clicks, all of them and those whose verdict is not machine. */
export interface HitTotals {
  opens: number;
  clicks: number;
  humanOpens: number;
  humanClicks: number;
}

/** What the services should answer about the benchmark's targets on this dataset. */
export interface ExpectedFigures {
  campaign: HitTotals & { emails: number; noHumanInteraction: number };
  period90: HitTotals;
  contact: HitTotals;
}

/** Counts the hits of the events `include` selects, by the email index and time of each event. */
function countHits(data: Dataset, include: (emailIndex: number, at: number) => boolean): HitTotals {
  const totals: HitTotals = { opens: 0, clicks: 0, humanOpens: 0, humanClicks: 0 };
  const { events } = data;
  for (let j = 0; j < events.count; j++) {
    if (!include(events.emailIndex[j] ?? 0, events.occurredAt[j] ?? 0)) continue;
    const click = events.type[j] === 1;
    const byPerson = !isMachineVerdict(events.verdict[j] ?? 0);
    if (click) totals.clicks++;
    else totals.opens++;
    if (byPerson && click) totals.humanClicks++;
    if (byPerson && !click) totals.humanOpens++;
  }
  return totals;
}

/** Sent emails of the campaign, and those of them no person opened or clicked. */
function campaignEmails(data: Dataset, campaignIndex: number) {
  const sent = new Set<number>();
  data.emails.forEach((email, index) => {
    if (email.campaignIndex === campaignIndex && email.status === "sent") sent.add(index);
  });
  const touchedByPerson = new Set<number>();
  const { events } = data;
  for (let j = 0; j < events.count; j++) {
    const emailIndex = events.emailIndex[j] ?? 0;
    if (sent.has(emailIndex) && !isMachineVerdict(events.verdict[j] ?? 0)) touchedByPerson.add(emailIndex);
  }
  return { emails: sent.size, noHumanInteraction: sent.size - touchedByPerson.size };
}

/** UTC day numbers of an inclusive `YYYY-MM-DD,YYYY-MM-DD` range. */
function rangeDays(range: string): { firstDay: number; lastDay: number } {
  const [first = "", last = ""] = range.split(",");
  return {
    firstDay: utcDayOf(Date.parse(`${first}T00:00:00.000Z`)),
    lastDay: utcDayOf(Date.parse(`${last}T00:00:00.000Z`)),
  };
}

/** The figures of the benchmark's targets, counted from the events of `data`. */
export function expectedFigures(data: Dataset): ExpectedFigures {
  const { campaignIndex } = benchTargets;
  const inCampaign = (emailIndex: number) => data.emails[emailIndex]?.campaignIndex === campaignIndex;
  const { firstDay, lastDay } = rangeDays(benchTargets.range90);
  const address = contactAddress(benchTargets.contactIndex);
  return {
    campaign: { ...countHits(data, inCampaign), ...campaignEmails(data, campaignIndex) },
    period90: countHits(data, (emailIndex, at) => {
      const day = utcDayOf(at);
      return inCampaign(emailIndex) && day >= firstDay && day <= lastDay;
    }),
    // The contact rollup counts the hits of the emails it is a `to` recipient of.
    contact: countHits(data, (emailIndex) => data.emails[emailIndex]?.to.includes(address) ?? false),
  };
}

/** `label: actual, expected` for each figure that differs. */
function mismatches(label: string, actual: Record<string, number>, expected: Record<string, number>) {
  return Object.entries(expected)
    .filter(([name, value]) => actual[name] !== value)
    .map(([name, value]) => `${label} ${name}: got ${actual[name]}, expected ${value}`);
}

/**
 * Asks `storage`'s services for the targets' figures and throws, listing every difference, when
 * one is not what `expected` says. Two service calls and a contact lookup: negligible beside the
 * seeding.
 */
export async function checkFigures(
  storage: Storage,
  data: Dataset,
  expected: ExpectedFigures,
): Promise<void> {
  const services = benchServices(storage);
  const org = data.organizationId;
  const campaignId = data.campaignIds[benchTargets.campaignIndex] ?? "";
  const [detail, period, contact] = await Promise.all([
    services.campaigns.get(org, campaignId),
    services.stats.campaign(org, { campaignId, period: benchTargets.range90 }),
    services.contacts.get(org, contactAddress(benchTargets.contactIndex)),
  ]);
  const { human } = detail.stats;
  const differences = [
    ...mismatches(
      "campaign detail",
      {
        emails: detail.stats.totalEmails,
        opens: detail.stats.totalOpens,
        clicks: detail.stats.totalClicks,
        humanOpens: human.totalOpens,
        humanClicks: human.totalClicks,
        noHumanInteraction: human.noInteraction,
      },
      { ...expected.campaign },
    ),
    ...mismatches(
      "period stats 90-day range",
      {
        opens: period.stats.totalOpens,
        clicks: period.stats.totalClicks,
        humanOpens: period.stats.human.totalOpens,
        humanClicks: period.stats.human.totalClicks,
      },
      { ...expected.period90 },
    ),
    ...mismatches(
      "contact detail",
      {
        opens: contact.totalOpens,
        clicks: contact.totalClicks,
        humanOpens: contact.humanOpens,
        humanClicks: contact.humanClicks,
      },
      { ...expected.contact },
    ),
  ];
  if (differences.length > 0) {
    throw new Error(`The seeded figures are not the dataset's:\n  ${differences.join("\n  ")}`);
  }
}
