import type { Migration } from "kysely";
import type { MailPulseDialect } from "../dialect.js";
import type { AnyDb } from "./any-db.js";

/**
 * `0010_inbound_messages`: the inbound log (docs/deliverability.md), one row per message the
 * inbound SMTP receiver accepted: envelope, kind, what was concluded, subject and Message-ID;
 * never a body. The serial id orders the log (the list pages by it); `received_at` is indexed for
 * the purge. `organization_id` is null for a message nobody could be tied to.
 */
export function inboundMessages(dialect: Pick<MailPulseDialect, "addSerialId">): Migration {
  return {
    async up(db: AnyDb) {
      await dialect
        .addSerialId(db.schema.createTable("mailpulse_inbound_message"))
        .addColumn("organization_id", "text", (c) =>
          c.references("mailpulse_organization.id").onDelete("cascade"),
        )
        // No foreign key: the log row outlives an email that is deleted.
        .addColumn("email_id", "text")
        .addColumn("received_at", "bigint", (c) => c.notNull())
        .addColumn("envelope_from", "text", (c) => c.notNull())
        .addColumn("envelope_to", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("summary", "text", (c) => c.notNull())
        .addColumn("subject", "text")
        .addColumn("message_id", "text")
        .execute();
      await db.schema
        .createIndex("mailpulse_inbound_message_organization")
        .on("mailpulse_inbound_message")
        .columns(["organization_id", "id"])
        .execute();
      await db.schema
        .createIndex("mailpulse_inbound_message_received")
        .on("mailpulse_inbound_message")
        .columns(["received_at"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("mailpulse_inbound_message").execute();
    },
  };
}
