import type { Migration } from "kysely";
import type { MailPulseDialect } from "../dialect.js";
import type { AnyDb } from "./any-db.js";

/**
 * `0009_delivery_feedback`: what comes back after a send (docs/deliverability.md).
 *
 * - `mailpulse_delivery_feedback`: one row per (email, recipient, kind) of a bounce, a delay, a
 *   complaint or an unsubscribe. The unique index makes recording idempotent: a report an MTA
 *   delivers twice (it retries when a crash ate our 250) is recorded once. Indexed for the
 *   soft-bounce rule (an address's recent soft bounces) and for statistics by campaign and day.
 * - `mailpulse_event.details`: JSON of what a bounce, complaint or unsubscribe event reports
 *   (recipient, bounce type, status...), null on sends, opens and clicks.
 * - `mailpulse_instance_secret`: secrets of the installation, such as the key that signs return
 *   paths and unsubscribe links when none is configured.
 * - An index on `mailpulse_email.provider_message_id`: a complaint names the original message by
 *   its Message-ID.
 */
export function deliveryFeedback(dialect: Pick<MailPulseDialect, "addSerialId">): Migration {
  return {
    async up(db: AnyDb) {
      await dialect
        .addSerialId(db.schema.createTable("mailpulse_delivery_feedback"))
        .addColumn("organization_id", "text", (c) => c.notNull())
        .addColumn("email_id", "text", (c) =>
          c.notNull().references("mailpulse_email.id").onDelete("cascade"),
        )
        .addColumn("campaign_id", "text")
        .addColumn("recipient", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("bounce_type", "text")
        .addColumn("status", "text")
        .addColumn("diagnostic", "text")
        .addColumn("feedback_type", "text")
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("occurred_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("mailpulse_delivery_feedback_once")
        .on("mailpulse_delivery_feedback")
        .columns(["email_id", "recipient", "kind"])
        .unique()
        .execute();
      await db.schema
        .createIndex("mailpulse_delivery_feedback_recipient")
        .on("mailpulse_delivery_feedback")
        .columns(["organization_id", "recipient", "kind", "occurred_at"])
        .execute();
      await db.schema
        .createIndex("mailpulse_delivery_feedback_campaign")
        .on("mailpulse_delivery_feedback")
        .columns(["organization_id", "campaign_id", "occurred_at"])
        .execute();
      await db.schema.alterTable("mailpulse_event").addColumn("details", "text").execute();
      await db.schema
        .createTable("mailpulse_instance_secret")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("mailpulse_email_provider_message")
        .on("mailpulse_email")
        .columns(["provider_message_id"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex("mailpulse_email_provider_message").execute();
      await db.schema.dropTable("mailpulse_instance_secret").execute();
      await db.schema.alterTable("mailpulse_event").dropColumn("details").execute();
      await db.schema.dropTable("mailpulse_delivery_feedback").execute();
    },
  };
}
