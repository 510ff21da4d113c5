import { type Migration, sql } from "kysely";
import type { MailPulseDialect } from "../dialect.js";
import type { AnyDb } from "./any-db.js";

/**
 * `0004_webhook_delivery`: what delivering webhooks and listing events need.
 *
 * - `mailpulse_event` becomes the event log: EMAIL_SENT is recorded there too (type `sent`), so one
 *   ordered table serves the events API and the outbox references its rows instead of carrying a
 *   payload. Emails sent before this migration get their `sent` row here.
 * - An index for paging an organization's events by id (the events API).
 * - The outbox table is rebuilt with leases, a `dead` state and the event it delivers. Its old
 *   rows are dropped: nothing delivered them, no route could create a webhook before this
 *   version, and their payload format is gone.
 * - Each delivery attempt is logged in `mailpulse_webhook_attempt`.
 * - A webhook keeps its previous secret during a rotation, and when its failures started.
 */
export function webhookDelivery(dialect: Pick<MailPulseDialect, "addSerialId">): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createIndex("mailpulse_event_log")
        .on("mailpulse_event")
        .columns(["organization_id", "id"])
        .execute();
      await db
        .insertInto("mailpulse_event")
        .columns(["organization_id", "email_id", "campaign_id", "link_id", "type", "occurred_at"])
        .expression(
          db
            .selectFrom("mailpulse_email")
            .select([
              "organization_id",
              "id",
              "campaign_id",
              sql.lit(null).as("link_id"),
              sql.lit("sent").as("type"),
              "sent_at",
            ])
            .where("status", "=", "sent")
            .where("origin", "=", "send")
            .where("sent_at", "is not", null)
            .orderBy("sent_at")
            .orderBy("id"),
        )
        .execute();

      await db.schema.dropTable("mailpulse_webhook_delivery").execute();
      await dialect
        .addSerialId(db.schema.createTable("mailpulse_webhook_delivery"))
        .addColumn("organization_id", "text", (c) => c.notNull())
        .addColumn("webhook_id", "text", (c) =>
          c.notNull().references("mailpulse_webhook.id").onDelete("cascade"),
        )
        .addColumn("event_id", "bigint", (c) =>
          c.notNull().references("mailpulse_event.id").onDelete("cascade"),
        )
        .addColumn("event_type", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", "bigint", (c) => c.notNull())
        .addColumn("lease_expires_at", "bigint")
        .addColumn("last_attempt_at", "bigint")
        .addColumn("last_status", "integer")
        .addColumn("last_error", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("delivered_at", "bigint")
        .execute();
      // Due rows only: delivered and dead rows, the bulk of the table, stay out of the index.
      await db.schema
        .createIndex("mailpulse_webhook_delivery_due")
        .on("mailpulse_webhook_delivery")
        .column("next_attempt_at")
        .where(sql.ref("status"), "in", sql`('pending', 'failed')`)
        .execute();
      await db.schema
        .createIndex("mailpulse_webhook_delivery_webhook")
        .on("mailpulse_webhook_delivery")
        .columns(["webhook_id", "id"])
        .execute();
      await db.schema
        .createIndex("mailpulse_webhook_delivery_finished")
        .on("mailpulse_webhook_delivery")
        .column("last_attempt_at")
        .where(sql.ref("status"), "in", sql`('delivered', 'dead')`)
        .execute();

      await dialect
        .addSerialId(db.schema.createTable("mailpulse_webhook_attempt"))
        .addColumn("delivery_id", "bigint", (c) =>
          c.notNull().references("mailpulse_webhook_delivery.id").onDelete("cascade"),
        )
        .addColumn("organization_id", "text", (c) => c.notNull())
        .addColumn("attempted_at", "bigint", (c) => c.notNull())
        .addColumn("status", "integer")
        .addColumn("duration_ms", "integer", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("response_excerpt", "text")
        .execute();
      await db.schema
        .createIndex("mailpulse_webhook_attempt_delivery")
        .on("mailpulse_webhook_attempt")
        .columns(["delivery_id", "id"])
        .execute();

      await db.schema.alterTable("mailpulse_webhook").addColumn("previous_secret", "text").execute();
      await db.schema
        .alterTable("mailpulse_webhook")
        .addColumn("previous_secret_expires_at", "bigint")
        .execute();
      await db.schema.alterTable("mailpulse_webhook").addColumn("failing_since", "bigint").execute();
    },

    async down(db: AnyDb) {
      await db.schema.alterTable("mailpulse_webhook").dropColumn("failing_since").execute();
      await db.schema.alterTable("mailpulse_webhook").dropColumn("previous_secret_expires_at").execute();
      await db.schema.alterTable("mailpulse_webhook").dropColumn("previous_secret").execute();
      await db.schema.dropTable("mailpulse_webhook_attempt").execute();
      await db.schema.dropTable("mailpulse_webhook_delivery").execute();
      await dialect
        .addSerialId(db.schema.createTable("mailpulse_webhook_delivery"))
        .addColumn("organization_id", "text", (c) => c.notNull())
        .addColumn("webhook_id", "text", (c) =>
          c.notNull().references("mailpulse_webhook.id").onDelete("cascade"),
        )
        .addColumn("event_type", "text", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", "bigint", (c) => c.notNull())
        .addColumn("last_error", "text")
        .addColumn("last_status", "integer")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("delivered_at", "bigint")
        .execute();
      await db.schema
        .createIndex("mailpulse_webhook_delivery_due")
        .on("mailpulse_webhook_delivery")
        .columns(["status", "next_attempt_at"])
        .execute();
      await db.deleteFrom("mailpulse_event").where("type", "=", "sent").execute();
      await db.schema.dropIndex("mailpulse_event_log").execute();
    },
  };
}
