import type { TrackingHit } from "../../ports/storage.js";
import { utcDayOf } from "../../util/utc-day.js";
import { verdictColumns } from "../verdict-columns.js";

/** Counter deltas of one email over a batch. */
export interface EmailDelta {
  email_id: string;
  /** The email's organization, as the hits claim it: the update only counts a matching email. */
  organization_id: string;
  opens: number;
  clicks: number;
  /** Earliest hit of any kind: the email counts as opened from then on. */
  first_at: number;
  /** Earliest click, or null when the batch has none for this email. */
  first_click_at: number | null;
  /** Latest hit: the contacts' last activity. */
  last_at: number;
  /** The same over human hits only (docs/measurement.md); null times when the batch has none. */
  human_opens: number;
  human_clicks: number;
  human_first_at: number | null;
  human_first_click_at: number | null;
}

/** Click deltas of one link over a batch. */
export interface LinkDelta {
  link_id: string;
  clicks: number;
}

/** Daily rollup deltas of one (organization, campaign or '', UTC day). */
export interface DayDelta {
  organization_id: string;
  campaign_id: string;
  day: number;
  opens: number;
  clicks: number;
  human_opens: number;
  human_clicks: number;
}

/**
 * A batch of hits reduced to the writes it needs: one delta per email, link and day, however
 * many hits each had (N opens of one email become one `+N`). Deltas are sorted by key so that
 * concurrent writers lock rows in the same order.
 */
export interface BatchPlan {
  emails: EmailDelta[];
  links: LinkDelta[];
}

/** Reduces hits to per-email and per-link deltas (days wait until the recorded emails are known). */
export function planBatch(hits: readonly TrackingHit[]): BatchPlan {
  const emails = new Map<string, EmailDelta>();
  const links = new Map<string, LinkDelta>();
  for (const { event } of hits) {
    const at = event.occurredAt.getTime();
    const isClick = event.type === "click";
    let email = emails.get(event.emailId);
    if (!email) {
      email = {
        email_id: event.emailId,
        organization_id: event.organizationId,
        opens: 0,
        clicks: 0,
        first_at: at,
        first_click_at: null,
        last_at: at,
        human_opens: 0,
        human_clicks: 0,
        human_first_at: null,
        human_first_click_at: null,
      };
      emails.set(event.emailId, email);
    }
    if (isClick) {
      email.clicks++;
      if (email.first_click_at === null || at < email.first_click_at) email.first_click_at = at;
    } else {
      email.opens++;
    }
    if (at < email.first_at) email.first_at = at;
    if (at > email.last_at) email.last_at = at;
    if (!event.verdict.machine) {
      if (isClick) {
        email.human_clicks++;
        if (email.human_first_click_at === null || at < email.human_first_click_at)
          email.human_first_click_at = at;
      } else {
        email.human_opens++;
      }
      if (email.human_first_at === null || at < email.human_first_at) email.human_first_at = at;
    }
    if (isClick && event.linkId) {
      const link = links.get(event.linkId);
      if (link) link.clicks++;
      else links.set(event.linkId, { link_id: event.linkId, clicks: 1 });
    }
  }
  return {
    emails: [...emails.values()].sort((a, b) => compare(a.email_id, b.email_id)),
    links: [...links.values()].sort((a, b) => compare(a.link_id, b.link_id)),
  };
}

/** Daily rollup deltas of the hits that were recorded. */
export function planDays(hits: readonly TrackingHit[]): DayDelta[] {
  const days = new Map<string, DayDelta>();
  for (const { event } of hits) {
    const day = utcDayOf(event.occurredAt.getTime());
    const campaignId = event.campaignId ?? "";
    const key = `${event.organizationId}\u0000${campaignId}\u0000${day}`;
    let delta = days.get(key);
    if (!delta) {
      delta = {
        organization_id: event.organizationId,
        campaign_id: campaignId,
        day,
        opens: 0,
        clicks: 0,
        human_opens: 0,
        human_clicks: 0,
      };
      days.set(key, delta);
    }
    const human = !event.verdict.machine;
    if (event.type === "click") {
      delta.clicks++;
      if (human) delta.human_clicks++;
    } else {
      delta.opens++;
      if (human) delta.human_opens++;
    }
  }
  return [...days.entries()].sort(([a], [b]) => compare(a, b)).map(([, delta]) => delta);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The `mailpulse_event` rows of a batch's hits, as the insert statements read them. */
export function eventRowsOf(hits: readonly TrackingHit[]) {
  return hits.map(({ event }) => ({
    organization_id: event.organizationId,
    email_id: event.emailId,
    campaign_id: event.campaignId,
    link_id: event.linkId,
    type: event.type,
    occurred_at: event.occurredAt.getTime(),
    ip: event.ip,
    user_agent: event.userAgent,
    method: event.method,
    ms_since_sent: event.msSinceSent,
    ...verdictColumns(event.verdict),
  }));
}
