import type { Kysely, Selectable } from "kysely";
import type { WebhookEventType, WebhookRecord, WebhookStore } from "../../ports/storage.js";
import type { MailPulseDialect } from "../dialect.js";
import { toDate, toDateOrNull } from "../mappers.js";
import type { MailPulseDatabase, WebhookTable } from "../schema.js";

function toWebhookRecord(row: Selectable<WebhookTable>): WebhookRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventType[],
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: toDateOrNull(row.previous_secret_expires_at),
    isActive: row.is_active === 1,
    failingSince: toDateOrNull(row.failing_since),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

/** {@link WebhookStore} on Kysely. */
export function createWebhookStore(db: Kysely<MailPulseDatabase>, dialect: MailPulseDialect): WebhookStore {
  return {
    async create(webhook, limit) {
      return db.transaction().execute(async (trx) => {
        // Serialises creates of one organization, so two cannot both pass the limit. SQLite
        // transactions already run one at a time.
        if (dialect.rowLocks) {
          await trx
            .selectFrom("mailpulse_organization")
            .select("id")
            .where("id", "=", webhook.organizationId)
            .forUpdate()
            .execute();
        }
        const { count } = await trx
          .selectFrom("mailpulse_webhook")
          .select((eb) => eb.fn.countAll<number | string>().as("count"))
          .where("organization_id", "=", webhook.organizationId)
          .executeTakeFirstOrThrow();
        if (Number(count) >= limit) return false;
        await trx
          .insertInto("mailpulse_webhook")
          .values({
            id: webhook.id,
            organization_id: webhook.organizationId,
            url: webhook.url,
            events: JSON.stringify(webhook.events),
            secret: webhook.secret,
            previous_secret: webhook.previousSecret,
            previous_secret_expires_at: webhook.previousSecretExpiresAt?.getTime() ?? null,
            is_active: webhook.isActive ? 1 : 0,
            failing_since: webhook.failingSince?.getTime() ?? null,
            created_at: webhook.createdAt.getTime(),
            updated_at: webhook.updatedAt.getTime(),
          })
          .execute();
        return true;
      });
    },

    async list(organizationId) {
      const rows = await db
        .selectFrom("mailpulse_webhook")
        .selectAll()
        .where("organization_id", "=", organizationId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toWebhookRecord);
    },

    async find(organizationId, id) {
      const row = await db
        .selectFrom("mailpulse_webhook")
        .selectAll()
        .where("organization_id", "=", organizationId)
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toWebhookRecord(row);
    },

    async findForDelivery(ids) {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom("mailpulse_webhook").selectAll().where("id", "in", ids).execute();
      return rows.map(toWebhookRecord);
    },

    async update(organizationId, id, patch) {
      const row = await db
        .updateTable("mailpulse_webhook")
        .set({
          ...(patch.url !== undefined && { url: patch.url }),
          ...(patch.events !== undefined && { events: JSON.stringify(patch.events) }),
          // Re-activating starts a fresh failure window.
          ...(patch.isActive !== undefined && { is_active: patch.isActive ? 1 : 0, failing_since: null }),
          ...(patch.secret !== undefined && { secret: patch.secret }),
          ...(patch.previousSecret !== undefined && { previous_secret: patch.previousSecret }),
          ...(patch.previousSecretExpiresAt !== undefined && {
            previous_secret_expires_at: patch.previousSecretExpiresAt?.getTime() ?? null,
          }),
          updated_at: patch.updatedAt.getTime(),
        })
        .where("organization_id", "=", organizationId)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      return row && toWebhookRecord(row);
    },

    async delete(organizationId, id) {
      // Deliveries and their attempts go with it (foreign keys cascade).
      const result = await db
        .deleteFrom("mailpulse_webhook")
        .where("organization_id", "=", organizationId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
