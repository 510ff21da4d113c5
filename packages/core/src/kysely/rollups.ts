/**
 * Rollup and event-log writes of the email store (tracking hits have their batched twins, each
 * dialect's hit writer: `record-hits.ts` in the storage packages). Each runs inside the caller's
 * transaction, so a fact and everything counted from it commit together.
 */
import { type Kysely, sql } from "kysely";
import { utcDayOf } from "../util/utc-day.js";
import { queueDeliveries } from "./outbox/queue-deliveries.js";
import type { MailPulseDatabase } from "./schema.js";

/** The later of a column and a value, in SQL both dialects accept (no GREATEST/MAX(a,b) split). */
function later(column: string, value: number) {
  return sql<number>`case when ${sql.ref(column)} > ${value} then ${sql.ref(column)} else ${value} end`;
}

/** Adds to the per-day totals of (organization, campaign or '', day). */
export async function bumpDailyStat(
  trx: Kysely<MailPulseDatabase>,
  key: { organizationId: string; campaignId: string | null; at: number },
  delta: { emails?: number; opens?: number; clicks?: number },
): Promise<void> {
  const emails = delta.emails ?? 0;
  const opens = delta.opens ?? 0;
  const clicks = delta.clicks ?? 0;
  await trx
    .insertInto("mailpulse_daily_stat")
    .values({
      organization_id: key.organizationId,
      campaign_id: key.campaignId ?? "",
      day: utcDayOf(key.at),
      emails,
      opens,
      clicks,
    })
    .onConflict((conflict) =>
      conflict.columns(["organization_id", "campaign_id", "day"]).doUpdateSet((eb) => ({
        emails: eb("mailpulse_daily_stat.emails", "+", emails),
        opens: eb("mailpulse_daily_stat.opens", "+", opens),
        clicks: eb("mailpulse_daily_stat.clicks", "+", clicks),
      })),
    )
    .execute();
}

/** Counts a sent email for each of its (distinct, lowercased) `to` contacts, in one statement. */
export async function countSentForContacts(
  trx: Kysely<MailPulseDatabase>,
  organizationId: string,
  addresses: readonly string[],
  sentAt: number,
): Promise<void> {
  // Distinct: one row may not be upserted twice by the same statement (PostgreSQL refuses it).
  // Sorted: concurrent sends to the same people then lock their contact rows in one order.
  const distinct = [...new Set(addresses)].sort();
  if (distinct.length === 0) return;
  await trx
    .insertInto("mailpulse_contact")
    .values(
      distinct.map((address) => ({
        organization_id: organizationId,
        address,
        total_emails: 1,
        first_seen: sentAt,
        last_activity: sentAt,
      })),
    )
    .onConflict((conflict) =>
      conflict.columns(["organization_id", "address"]).doUpdateSet((eb) => ({
        total_emails: eb("mailpulse_contact.total_emails", "+", 1),
        first_seen: sql<number>`case when ${sql.ref("mailpulse_contact.first_seen")} < ${sentAt} then ${sql.ref("mailpulse_contact.first_seen")} else ${sentAt} end`,
        last_activity: later("mailpulse_contact.last_activity", sentAt),
      })),
    )
    .execute();
}

/**
 * Logs a sent email's EMAIL_SENT event in the event log and queues it for the organization's
 * subscribed active webhooks.
 */
export async function logSentEvent(
  trx: Kysely<MailPulseDatabase>,
  email: { organizationId: string; campaignId: string | null; id: string },
  sentAt: number,
): Promise<void> {
  const event = await trx
    .insertInto("mailpulse_event")
    .values({
      organization_id: email.organizationId,
      email_id: email.id,
      campaign_id: email.campaignId,
      link_id: null,
      type: "sent",
      occurred_at: sentAt,
      ip: null,
      user_agent: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await queueDeliveries(trx, Number(event.id));
}
