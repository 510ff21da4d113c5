import { type Kysely, sql } from "kysely";
import type { CampaignTotals, StatsStore } from "../../ports/storage.js";
import { toCount, toDate } from "../mappers.js";
import type { MailPulseDatabase } from "../schema.js";
import { countedEmailStatuses } from "../schema.js";
import { createContactStatsStore } from "./contact-stats-store.js";

type TotalsRow = {
  total_emails: number | string | bigint;
  total_opens: number | string | bigint | null;
  total_clicks: number | string | bigint | null;
  opened_emails: number | string | bigint;
  clicked_emails: number | string | bigint;
  human_opens: number | string | bigint | null;
  human_clicks: number | string | bigint | null;
  human_opened_emails: number | string | bigint;
  human_clicked_emails: number | string | bigint;
};

function toTotals(row: TotalsRow): CampaignTotals {
  return {
    totalEmails: toCount(row.total_emails),
    totalOpens: toCount(row.total_opens),
    totalClicks: toCount(row.total_clicks),
    openedEmails: toCount(row.opened_emails),
    clickedEmails: toCount(row.clicked_emails),
    human: {
      totalOpens: toCount(row.human_opens),
      totalClicks: toCount(row.human_clicks),
      openedEmails: toCount(row.human_opened_emails),
      clickedEmails: toCount(row.human_clicked_emails),
    },
  };
}

/**
 * {@link StatsStore} on Kysely. Totals read the per-email counters and the per-day rollup, so
 * their cost follows the number of emails (or days) asked about, not the event history; only the
 * period's top links read events, and only those of the campaign within the period.
 */
export function createStatsStore(db: Kysely<MailPulseDatabase>): StatsStore {
  const sentEmailsOf = (organizationId: string, campaignId: string) =>
    db
      .selectFrom("mailpulse_email")
      // Qualified: period queries join the recipient table, which has an organization_id too.
      .where("mailpulse_email.organization_id", "=", organizationId)
      .where("mailpulse_email.campaign_id", "=", campaignId)
      .where("mailpulse_email.status", "in", countedEmailStatuses);

  const totalsColumns = [
    db.fn.countAll<number>().as("total_emails"),
    db.fn.sum<number>("open_count").as("total_opens"),
    db.fn.sum<number>("click_count").as("total_clicks"),
    db.fn.count<number>("first_opened_at").as("opened_emails"),
    db.fn.count<number>("first_clicked_at").as("clicked_emails"),
    // The human counters live on the same rows: the same scan, four more sums.
    db.fn.sum<number>("human_open_count").as("human_opens"),
    db.fn.sum<number>("human_click_count").as("human_clicks"),
    db.fn.count<number>("human_first_opened_at").as("human_opened_emails"),
    db.fn.count<number>("human_first_clicked_at").as("human_clicked_emails"),
  ];

  /** Each tracked URL of the campaign's sent emails, with its clicks summed over its occurrences. */
  const linkClicksOf = (organizationId: string, campaignId: string) =>
    // The status filter is a semi-join on the campaign's own emails: joining the email table
    // instead lets PostgreSQL hash every email of the organization.
    db
      .selectFrom("mailpulse_link")
      .where("organization_id", "=", organizationId)
      .where("campaign_id", "=", campaignId)
      .where("email_id", "in", sentEmailsOf(organizationId, campaignId).select("id"))
      .groupBy("url")
      .select((eb) => ["url", eb.fn.sum("click_count").as("clicks")]);

  return {
    ...createContactStatsStore(db),
    async campaignTotals(organizationId, campaignId) {
      const row = await sentEmailsOf(organizationId, campaignId)
        .select(totalsColumns)
        .executeTakeFirstOrThrow();
      return toTotals(row);
    },
    async campaignLinks(organizationId, campaignId, limit) {
      let query = linkClicksOf(organizationId, campaignId).orderBy("clicks", "desc").orderBy("url");
      if (limit !== undefined) query = query.limit(limit);
      const rows = await query.execute();
      return rows.map((row) => ({ url: row.url, clicks: toCount(row.clicks) }));
    },
    async campaignLinksByUrl(organizationId, campaignId, { limit, afterUrl }) {
      let query = linkClicksOf(organizationId, campaignId);
      if (afterUrl !== undefined) query = query.where("url", ">", afterUrl);
      const rows = await query.orderBy("url").limit(limit).execute();
      return rows.map((row) => ({ url: row.url, clicks: toCount(row.clicks) }));
    },
    async campaignEmails(organizationId, campaignId, limit) {
      const rows = await sentEmailsOf(organizationId, campaignId)
        .select(["id", "tracking_id", "recipient", "subject", "created_at", "open_count", "click_count"])
        .orderBy("sent_at", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        trackingId: row.tracking_id,
        recipient: row.recipient,
        subject: row.subject,
        createdAt: toDate(row.created_at),
        opens: toCount(row.open_count),
        clicks: toCount(row.click_count),
      }));
    },
    async campaignPeriodEmails(organizationId, campaignId, range) {
      const inRange = sentEmailsOf(organizationId, campaignId)
        .where("mailpulse_email.sent_at", ">=", range.start.getTime())
        .where("mailpulse_email.sent_at", "<=", range.end.getTime());
      const [counts, recipients] = await Promise.all([
        inRange
          .select((eb) => [
            eb.fn.countAll().as("total_emails"),
            eb.fn.count("first_opened_at").as("opened"),
            eb.fn.count("human_first_opened_at").as("human_opened"),
          ])
          .executeTakeFirstOrThrow(),
        // Driven from the period's emails to their recipients (primary key prefix), so the cost
        // follows the period's emails, not the organization's recipients.
        inRange
          .innerJoin("mailpulse_email_recipient", "mailpulse_email_recipient.email_id", "mailpulse_email.id")
          .where("mailpulse_email_recipient.kind", "=", "to")
          .select((eb) => eb.fn.count("mailpulse_email_recipient.address").distinct().as("unique_recipients"))
          .executeTakeFirstOrThrow(),
      ]);
      return {
        totalEmails: toCount(counts.total_emails),
        openedEmails: toCount(counts.opened),
        uniqueRecipients: toCount(recipients.unique_recipients),
        humanOpenedEmails: toCount(counts.human_opened),
      };
    },
    async campaignDailyTotals(organizationId, campaignId, firstDay, lastDay) {
      const rows = await db
        .selectFrom("mailpulse_daily_stat")
        .select(["day", "emails", "opens", "clicks", "human_opens", "human_clicks"])
        .where("organization_id", "=", organizationId)
        .where("campaign_id", "=", campaignId)
        .where("day", ">=", firstDay)
        .where("day", "<=", lastDay)
        .orderBy("day")
        .execute();
      return rows.map((row) => ({
        day: Number(row.day),
        emails: toCount(row.emails),
        opens: toCount(row.opens),
        clicks: toCount(row.clicks),
        humanOpens: toCount(row.human_opens),
        humanClicks: toCount(row.human_clicks),
      }));
    },
    async campaignPeriodTopLinks(organizationId, campaignId, range, limit) {
      // Reads the partial index of click events (migration 0002) without touching event rows; the
      // type is a literal so SQLite can prove the partial index applies. The organization is
      // checked on the link row, which is read for its URL anyway.
      const rows = await db
        .selectFrom("mailpulse_event")
        .innerJoin("mailpulse_link", "mailpulse_link.id", "mailpulse_event.link_id")
        .where("mailpulse_event.campaign_id", "=", campaignId)
        .where("mailpulse_event.occurred_at", ">=", range.start.getTime())
        .where("mailpulse_event.occurred_at", "<=", range.end.getTime())
        .where("mailpulse_event.type", "=", sql.lit("click"))
        .where("mailpulse_link.organization_id", "=", organizationId)
        .groupBy("mailpulse_link.url")
        .select((eb) => ["mailpulse_link.url", eb.fn.countAll().as("clicks")])
        .orderBy("clicks", "desc")
        .orderBy("mailpulse_link.url")
        .limit(limit)
        .execute();
      return rows.map((row) => ({ url: row.url, clicks: toCount(row.clicks) }));
    },
    async organizationTotals(organizationId) {
      const row = await db
        .selectFrom("mailpulse_email")
        .where("organization_id", "=", organizationId)
        .where("status", "in", countedEmailStatuses)
        .select(totalsColumns)
        .executeTakeFirstOrThrow();
      return toTotals(row);
    },
  };
}
