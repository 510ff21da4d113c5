import type { Kysely } from "kysely";
import type { WebhookEventType, WebhookStore } from "../../ports/storage.js";
import { toCount, toDate } from "../mappers.js";
import type { MailPulseDatabase } from "../schema.js";

/** {@link WebhookStore} on Kysely. */
export function createWebhookStore(db: Kysely<MailPulseDatabase>): WebhookStore {
  return {
    async create(webhook) {
      await db
        .insertInto("mailpulse_webhook")
        .values({
          id: webhook.id,
          organization_id: webhook.organizationId,
          url: webhook.url,
          events: JSON.stringify(webhook.events),
          secret: webhook.secret,
          is_active: webhook.isActive ? 1 : 0,
          created_at: webhook.createdAt.getTime(),
          updated_at: webhook.updatedAt.getTime(),
        })
        .execute();
    },
    async list(organizationId) {
      const rows = await db
        .selectFrom("mailpulse_webhook")
        .selectAll()
        .where("organization_id", "=", organizationId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map((row) => ({
        id: row.id,
        organizationId: row.organization_id,
        url: row.url,
        events: JSON.parse(row.events) as WebhookEventType[],
        secret: row.secret,
        isActive: row.is_active === 1,
        createdAt: toDate(row.created_at),
        updatedAt: toDate(row.updated_at),
      }));
    },
    async listDeliveries(organizationId) {
      const rows = await db
        .selectFrom("mailpulse_webhook_delivery")
        .select(["id", "webhook_id", "event_type", "payload", "status", "attempts", "created_at"])
        .where("organization_id", "=", organizationId)
        .orderBy("id")
        .execute();
      return rows.map((row) => ({
        id: Number(row.id),
        webhookId: row.webhook_id,
        eventType: row.event_type as WebhookEventType,
        payload: row.payload,
        status: row.status,
        attempts: toCount(row.attempts),
        createdAt: toDate(row.created_at),
      }));
    },
  };
}
