import type { Kysely } from "kysely";
import type { StatsStore } from "../../ports/storage.js";
import { toCount, toDate } from "../mappers.js";
import type { MailPulseDatabase } from "../schema.js";

/** {@link StatsStore} on Kysely: reads per-email counters, never scans the event history. */
export function createStatsStore(db: Kysely<MailPulseDatabase>): StatsStore {
  const sentEmailsOf = (organizationId: string, campaignId: string) =>
    db
      .selectFrom("mailpulse_email")
      .where("organization_id", "=", organizationId)
      .where("campaign_id", "=", campaignId)
      .where("status", "=", "sent");

  return {
    async campaignTotals(organizationId, campaignId) {
      const row = await sentEmailsOf(organizationId, campaignId)
        .select((eb) => [
          eb.fn.countAll().as("total_emails"),
          eb.fn.sum("open_count").as("total_opens"),
          eb.fn.sum("click_count").as("total_clicks"),
          eb.fn.count("first_opened_at").as("opened_emails"),
          eb.fn.count("first_clicked_at").as("clicked_emails"),
        ])
        .executeTakeFirstOrThrow();
      return {
        totalEmails: toCount(row.total_emails),
        totalOpens: toCount(row.total_opens),
        totalClicks: toCount(row.total_clicks),
        openedEmails: toCount(row.opened_emails),
        clickedEmails: toCount(row.clicked_emails),
      };
    },
    async campaignLinks(organizationId, campaignId) {
      const rows = await db
        .selectFrom("mailpulse_link")
        .innerJoin("mailpulse_email", "mailpulse_email.id", "mailpulse_link.email_id")
        .where("mailpulse_link.organization_id", "=", organizationId)
        .where("mailpulse_link.campaign_id", "=", campaignId)
        .where("mailpulse_email.status", "=", "sent")
        .groupBy("mailpulse_link.url")
        .select((eb) => ["mailpulse_link.url", eb.fn.sum("mailpulse_link.click_count").as("clicks")])
        .orderBy("clicks", "desc")
        .orderBy("mailpulse_link.url")
        .execute();
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
  };
}
