/**
 * Read models for statistics. Definitions live in docs/statistics.md; every method counts only
 * emails whose status is `sent` (failed sends are not counted anywhere).
 */

/** Totals of one campaign. "Opened" = at least one open or click (a click proves an open). */
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

/** Statistics queries. */
export interface StatsStore {
  /** Totals of the campaign's sent emails. */
  campaignTotals(organizationId: string, campaignId: string): Promise<CampaignTotals>;
  /** Every tracked URL of the campaign with its clicks, most clicked first, then by URL. */
  campaignLinks(organizationId: string, campaignId: string): Promise<LinkClicks[]>;
  /** The campaign's sent emails, newest first, at most `limit`. */
  campaignEmails(organizationId: string, campaignId: string, limit: number): Promise<CampaignEmailRow[]>;
}
