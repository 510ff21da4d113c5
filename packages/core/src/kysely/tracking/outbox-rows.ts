import type { Kysely } from "kysely";
import type { TrackingHit } from "../../ports/storage.js";
import type { MailPulseDatabase } from "../schema.js";

/** An active webhook as the outbox sees it: who owns it and which events it receives. */
export interface OutboxTarget {
  id: string;
  organizationId: string;
  events: ReadonlySet<string>;
}

/** One delivery to queue: a hit's event for one subscribed webhook. */
export interface OutboxRow {
  email_id: string;
  organization_id: string;
  webhook_id: string;
  event_type: string;
  payload: string;
  created_at: number;
}

/**
 * The deliveries a batch queues: one per (hit with a webhook event, active webhook of its
 * organization subscribed to that event). A hit's payload is serialised once, however many
 * webhooks receive it, and never when none does.
 */
export function outboxRowsFor(hits: readonly TrackingHit[], targets: readonly OutboxTarget[]): OutboxRow[] {
  const rows: OutboxRow[] = [];
  for (const hit of hits) {
    if (!hit.webhook) continue;
    const { type } = hit.webhook;
    const receivers = targets.filter(
      (target) => target.organizationId === hit.event.organizationId && target.events.has(type),
    );
    if (receivers.length === 0) continue;
    const payload = hit.webhook.payload();
    const createdAt = hit.event.occurredAt.getTime();
    for (const receiver of receivers) {
      rows.push({
        email_id: hit.event.emailId,
        organization_id: hit.event.organizationId,
        webhook_id: receiver.id,
        event_type: type,
        payload,
        created_at: createdAt,
      });
    }
  }
  return rows;
}

/** Active webhooks of the batch's organizations (read before the write; re-checked inside it). */
export async function subscribedWebhooks(
  db: Kysely<MailPulseDatabase>,
  hits: readonly TrackingHit[],
): Promise<OutboxTarget[]> {
  const organizations = [
    ...new Set(hits.filter((hit) => hit.webhook).map((hit) => hit.event.organizationId)),
  ];
  if (organizations.length === 0) return [];
  const webhooks = await db
    .selectFrom("mailpulse_webhook")
    .select(["id", "organization_id", "events"])
    .where("organization_id", "in", organizations)
    .where("is_active", "=", 1)
    .execute();
  return webhooks.map((webhook) => ({
    id: webhook.id,
    organizationId: webhook.organization_id,
    events: new Set(JSON.parse(webhook.events) as string[]),
  }));
}
