/**
 * Read models for statistics. Definitions live in docs/statistics.md; every method counts only
 * emails whose status is `sent` (failed sends are not counted anywhere). "Human" figures count
 * only hits whose verdict is not machine (docs/measurement.md), from the same rollups.
 */
import type { HitSource } from "../measurement/hit-verdict.js";

/** Totals of a set of emails (a campaign, or an organization). "Opened" = at least one open or click (a click proves an open). */
export interface CampaignTotals {
  totalEmails: number;
  /** Open events. */
  totalOpens: number;
  /** Click events. */
  totalClicks: number;
  /** Emails with at least one open or click. */
  openedEmails: number;
  /** Emails with at least one click. */
  clickedEmails: number;
  /** The same four over human hits only. */
  human: { totalOpens: number; totalClicks: number; openedEmails: number; clickedEmails: number };
}

/** Clicks of one tracked URL, summed over its occurrences. */
export interface LinkClicks {
  url: string;
  clicks: number;
}

/** One email of a campaign, as the campaign detail lists it. */
export interface CampaignEmailRow {
  id: string;
  trackingId: string;
  recipient: string;
  subject: string;
  createdAt: Date;
  opens: number;
  clicks: number;
}

/** An interval of instants, both ends included. */
export interface TimeRange {
  start: Date;
  end: Date;
}

/** The campaign's emails sent within a {@link TimeRange}. */
export interface PeriodEmailTotals {
  /** Emails whose send time is in the range. */
  totalEmails: number;
  /** Of those, emails with at least one open or click (at any time). */
  openedEmails: number;
  /** Distinct lowercased `to` addresses of those emails. */
  uniqueRecipients: number;
  /** Of those, emails with at least one human open or click (at any time). */
  humanOpenedEmails: number;
}

/** One UTC day of the per-day rollup. Days without a row have zero everywhere. */
export interface DailyTotals {
  /** UTC days since the epoch: `floor(epochMs / 86_400_000)`. */
  day: number;
  /** Emails sent that day. */
  emails: number;
  /** Open events that day. */
  opens: number;
  /** Click events that day. */
  clicks: number;
  /** Human open and click events that day. */
  humanOpens: number;
  humanClicks: number;
}

/** A contact: the per-address rollup of an organization's `to` recipients (cc/bcc are not contacts). */
export interface ContactRecord {
  /** Lowercased address. */
  address: string;
  totalEmails: number;
  /** Open events of the contact's emails. */
  totalOpens: number;
  /** Click events of the contact's emails. */
  totalClicks: number;
  /** Human open and click events of the contact's emails. */
  humanOpens: number;
  humanClicks: number;
  /** Send time of the first email. */
  firstSeen: Date;
  /** Latest of the send, open and click times of the contact's emails. */
  lastActivity: Date;
}

/** A position in the contact list: rows strictly after it (in list order) come next. */
export interface ContactCursor {
  lastActivity: Date;
  address: string;
}

/** Which contacts {@link ContactStatsStore.listContacts} returns. */
export interface ContactListQuery {
  /** Lowercased substring the address must contain; matched literally (`%` and `_` are not wildcards). */
  search?: string;
  /** Rows to return at most. */
  limit: number;
  after?: ContactCursor;
}

/** A campaign name a contact received, for the contact list and detail. */
export interface ContactCampaign {
  address: string;
  name: string;
}

/** One entry of a contact's timeline. */
export interface TimelineRecord {
  type: "sent" | "opened" | "clicked";
  /** Send time for `sent`, event time otherwise. */
  at: Date;
  subject: string;
  /** The campaign's name, or null for a standalone email. */
  campaign: string | null;
  /** The clicked URL (`clicked` only), else null. */
  link: string | null;
  /** Opens and clicks: the event's current verdict; null on `sent`. */
  machine: boolean | null;
  source: HitSource | null;
}

/** Contact read models. Only sent emails count; a missing contact and a foreign one look the same. */
export interface ContactStatsStore {
  /**
   * Contacts, most recent activity first (ties: address descending), optionally filtered by
   * `search`, starting strictly after `after`. Cost grows with the page, not the contact count,
   * except for a `search` that matches few rows (the filter is a scan in activity order).
   */
  listContacts(organizationId: string, query: ContactListQuery): Promise<ContactRecord[]>;
  /** The contact with this lowercased address, or `undefined` when the organization never emailed it. */
  getContact(organizationId: string, address: string): Promise<ContactRecord | undefined>;
  /** Distinct (address, campaign name) pairs of the sent emails of these addresses, in any order. */
  contactCampaigns(organizationId: string, addresses: readonly string[]): Promise<ContactCampaign[]>;
  /**
   * The newest `limit` entries of the contact's history: its sent emails and their open and click
   * events, newest first. At equal times an event comes before the send it follows; events tie
   * by recording order (newest first) and sends by email id (descending).
   */
  contactTimeline(organizationId: string, address: string, limit: number): Promise<TimelineRecord[]>;
}

/** Statistics queries: campaign, period, organization and contact read models. */
export interface StatsStore extends ContactStatsStore {
  /** Totals of the campaign's sent emails. */
  campaignTotals(organizationId: string, campaignId: string): Promise<CampaignTotals>;
  /**
   * The campaign's tracked URLs with their clicks, most clicked first, then by URL: at most
   * `limit` of them (default: every one).
   */
  campaignLinks(organizationId: string, campaignId: string, limit?: number): Promise<LinkClicks[]>;
  /**
   * A page of the campaign's tracked URLs with their clicks, in URL order (stable while clicks
   * arrive): at most `limit`, those after `afterUrl` when given.
   */
  campaignLinksByUrl(
    organizationId: string,
    campaignId: string,
    page: { limit: number; afterUrl?: string },
  ): Promise<LinkClicks[]>;
  /** The campaign's sent emails, newest first, at most `limit`. */
  campaignEmails(organizationId: string, campaignId: string, limit: number): Promise<CampaignEmailRow[]>;
  /** Counts over the campaign's emails sent within `range`. */
  campaignPeriodEmails(
    organizationId: string,
    campaignId: string,
    range: TimeRange,
  ): Promise<PeriodEmailTotals>;
  /**
   * The campaign's per-day rollup rows for days `firstDay..lastDay` (inclusive), oldest first;
   * days with nothing are absent (callers zero-fill).
   */
  campaignDailyTotals(
    organizationId: string,
    campaignId: string,
    firstDay: number,
    lastDay: number,
  ): Promise<DailyTotals[]>;
  /** Clicks recorded within `range` per URL, most clicked first, then by URL; at most `limit`. */
  campaignPeriodTopLinks(
    organizationId: string,
    campaignId: string,
    range: TimeRange,
    limit: number,
  ): Promise<LinkClicks[]>;
  /** Totals over every sent email of the organization: all campaigns (archived ones too) and standalone. */
  organizationTotals(organizationId: string): Promise<CampaignTotals>;
}
