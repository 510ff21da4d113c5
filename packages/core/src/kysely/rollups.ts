/**
 * Rollup and outbox writes of the email store (tracking hits have their batched, set-based twin
 * in `tracking/record-hits.ts`). Each runs inside the caller's transaction, so a fact and
 * everything counted from it commit together.
 */
import { type Kysely, sql } from "kysely";
import type { OutboxEvent } from "../ports/storage.js";
import { utcDayOf } from "../util/utc-day.js";
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

/** Queues one delivery per active webhook of the organization subscribed to the event. */
export async function enqueueWebhookEvent(
  trx: Kysely<MailPulseDatabase>,
  organizationId: string,
  event: OutboxEvent,
): Promise<void> {
  const createdAt = event.createdAt.getTime();
  await trx
    .insertInto("mailpulse_webhook_delivery")
    .columns([
      "organization_id",
      "webhook_id",
      "event_type",
      "payload",
      "status",
      "attempts",
      "next_attempt_at",
      "created_at",
    ])
    .expression((eb) =>
      eb
        .selectFrom("mailpulse_webhook")
        .select((inner) => [
          inner.val(organizationId).as("organization_id"),
          "id",
          inner.val(event.type).as("event_type"),
          inner.val(event.payload).as("payload"),
          inner.val("pending").as("status"),
          inner.val(0).as("attempts"),
          inner.val(createdAt).as("next_attempt_at"),
          inner.val(createdAt).as("created_at"),
        ])
        .where("organization_id", "=", organizationId)
        .where("is_active", "=", 1)
        // `events` is a JSON array of names; names are fixed identifiers, so a quoted match is exact.
        .where("events", "like", `%"${event.type}"%`),
    )
    .execute();
}
