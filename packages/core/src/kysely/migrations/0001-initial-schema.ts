import type { Migration } from "kysely";
import type { MailPulseDialect } from "../dialect.js";
import type { AnyDb } from "./any-db.js";

/**
 * `0001_initial_schema`: every table of the first release. One definition serves both dialects;
 * the dialect's `addSerialId` spells the auto-increment keys, the only DDL that differs.
 */
export function initialSchema(dialect: Pick<MailPulseDialect, "addSerialId">): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable("mailpulse_organization")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("custom_domain", "text", (c) => c.unique())
        .addColumn("custom_domain_verified_at", "bigint")
        .execute();

      await db.schema
        .createTable("mailpulse_api_key")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) =>
          c.notNull().references("mailpulse_organization.id").onDelete("cascade"),
        )
        .addColumn("name", "text")
        .addColumn("key_hash", "text", (c) => c.notNull().unique())
        .addColumn("key_prefix", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("revoked_at", "bigint")
        .execute();
      await db.schema
        .createIndex("mailpulse_api_key_org")
        .on("mailpulse_api_key")
        .column("organization_id")
        .execute();

      await db.schema
        .createTable("mailpulse_campaign")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) =>
          c.notNull().references("mailpulse_organization.id").onDelete("cascade"),
        )
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("archived_at", "bigint")
        .addUniqueConstraint("mailpulse_campaign_org_name", ["organization_id", "name"])
        .execute();

      await db.schema
        .createTable("mailpulse_email")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) =>
          c.notNull().references("mailpulse_organization.id").onDelete("cascade"),
        )
        .addColumn("campaign_id", "text", (c) => c.references("mailpulse_campaign.id").onDelete("set null"))
        .addColumn("tracking_id", "text", (c) => c.notNull().unique())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("origin", "text", (c) => c.notNull())
        .addColumn("provider_message_id", "text")
        .addColumn("from_address", "text", (c) => c.notNull())
        .addColumn("sender", "text", (c) => c.notNull())
        .addColumn("reply_to", "text")
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("recipient", "text", (c) => c.notNull())
        .addColumn("metadata", "text")
        .addColumn("track_opens", "integer", (c) => c.notNull())
        .addColumn("track_clicks", "integer", (c) => c.notNull())
        .addColumn("open_count", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("click_count", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("first_opened_at", "bigint")
        .addColumn("first_clicked_at", "bigint")
        .addColumn("failure_reason", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("sent_at", "bigint")
        .execute();
      await db.schema
        .createIndex("mailpulse_email_org_sent")
        .on("mailpulse_email")
        .columns(["organization_id", "status", "sent_at"])
        .execute();
      await db.schema
        .createIndex("mailpulse_email_campaign_sent")
        .on("mailpulse_email")
        .columns(["campaign_id", "status", "sent_at"])
        .execute();

      await db.schema
        .createTable("mailpulse_email_recipient")
        .addColumn("email_id", "text", (c) =>
          c.notNull().references("mailpulse_email.id").onDelete("cascade"),
        )
        .addColumn("organization_id", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("address", "text", (c) => c.notNull())
        .addColumn("display", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("mailpulse_email_recipient_pk", ["email_id", "kind", "position"])
        .execute();
      await db.schema
        .createIndex("mailpulse_email_recipient_contact")
        .on("mailpulse_email_recipient")
        .columns(["organization_id", "address", "kind"])
        .execute();

      await db.schema
        .createTable("mailpulse_link")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("email_id", "text", (c) =>
          c.notNull().references("mailpulse_email.id").onDelete("cascade"),
        )
        .addColumn("organization_id", "text", (c) => c.notNull())
        .addColumn("campaign_id", "text")
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("click_count", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("mailpulse_link_email").on("mailpulse_link").column("email_id").execute();
      await db.schema
        .createIndex("mailpulse_link_campaign")
        .on("mailpulse_link")
        .columns(["campaign_id", "url"])
        .execute();

      await dialect
        .addSerialId(db.schema.createTable("mailpulse_event"))
        .addColumn("organization_id", "text", (c) => c.notNull())
        .addColumn("email_id", "text", (c) =>
          c.notNull().references("mailpulse_email.id").onDelete("cascade"),
        )
        .addColumn("campaign_id", "text")
        .addColumn("link_id", "text")
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("occurred_at", "bigint", (c) => c.notNull())
        .addColumn("ip", "text")
        .addColumn("user_agent", "text")
        .execute();
      await db.schema
        .createIndex("mailpulse_event_email")
        .on("mailpulse_event")
        .columns(["email_id", "occurred_at"])
        .execute();
      await db.schema
        .createIndex("mailpulse_event_campaign")
        .on("mailpulse_event")
        .columns(["campaign_id", "occurred_at"])
        .execute();

      await db.schema
        .createTable("mailpulse_contact")
        .addColumn("organization_id", "text", (c) => c.notNull())
        .addColumn("address", "text", (c) => c.notNull())
        .addColumn("total_emails", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("total_opens", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("total_clicks", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("first_seen", "bigint", (c) => c.notNull())
        .addColumn("last_activity", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("mailpulse_contact_pk", ["organization_id", "address"])
        .execute();
      await db.schema
        .createIndex("mailpulse_contact_activity")
        .on("mailpulse_contact")
        .columns(["organization_id", "last_activity", "address"])
        .execute();

      await db.schema
        .createTable("mailpulse_daily_stat")
        .addColumn("organization_id", "text", (c) => c.notNull())
        .addColumn("campaign_id", "text", (c) => c.notNull())
        .addColumn("day", "integer", (c) => c.notNull())
        .addColumn("emails", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("opens", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("clicks", "integer", (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("mailpulse_daily_stat_pk", ["organization_id", "campaign_id", "day"])
        .execute();

      await db.schema
        .createTable("mailpulse_sending_domain")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) =>
          c.notNull().references("mailpulse_organization.id").onDelete("cascade"),
        )
        .addColumn("domain", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("records", "text", (c) => c.notNull())
        .addColumn("dkim_selector", "text", (c) => c.notNull())
        .addColumn("dkim_private_key", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("verified_at", "bigint")
        .addColumn("last_checked_at", "bigint")
        .addUniqueConstraint("mailpulse_sending_domain_org_domain", ["organization_id", "domain"])
        .execute();

      await db.schema
        .createTable("mailpulse_webhook")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) =>
          c.notNull().references("mailpulse_organization.id").onDelete("cascade"),
        )
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("events", "text", (c) => c.notNull())
        .addColumn("secret", "text", (c) => c.notNull())
        .addColumn("is_active", "integer", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("mailpulse_webhook_org")
        .on("mailpulse_webhook")
        .column("organization_id")
        .execute();

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
    },
    async down(db: AnyDb) {
      // Dependents first, so no foreign key points at a table already gone.
      for (const table of [
        "mailpulse_webhook_delivery",
        "mailpulse_webhook",
        "mailpulse_sending_domain",
        "mailpulse_daily_stat",
        "mailpulse_contact",
        "mailpulse_event",
        "mailpulse_link",
        "mailpulse_email_recipient",
        "mailpulse_email",
        "mailpulse_campaign",
        "mailpulse_api_key",
        "mailpulse_organization",
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
