import type { Migration } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * `0008_suppressions`: the per-organization suppression list (docs/deliverability.md), and on
 * each email the recipients its send dropped because they were suppressed.
 *
 * - `mailpulse_suppression`: one row per organization and normalised address (the primary key,
 *   which also serves the send's lookup of all its recipients and the list's address order), with
 *   the reason, the source email, the bounce's status and diagnostic. `reason` is indexed beside
 *   the organization for the list's filter.
 * - `mailpulse_email.suppressed_recipients`: a JSON array of `{kind, address, reason}`, null when
 *   nothing was dropped. Kept on the email row (not as recipient rows) so the contact and
 *   statistics queries, which read recipient rows, never count an address that got nothing.
 */
export const suppressions: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("mailpulse_suppression")
      .addColumn("organization_id", "text", (c) =>
        c.notNull().references("mailpulse_organization.id").onDelete("cascade"),
      )
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("reason", "text", (c) => c.notNull())
      // No foreign key: the entry outlives the email that caused it (emails may be purged).
      .addColumn("source_email_id", "text")
      .addColumn("status", "text")
      .addColumn("diagnostic", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("mailpulse_suppression_pk", ["organization_id", "address"])
      .execute();
    await db.schema
      .createIndex("mailpulse_suppression_reason")
      .on("mailpulse_suppression")
      .columns(["organization_id", "reason", "address"])
      .execute();
    await db.schema.alterTable("mailpulse_email").addColumn("suppressed_recipients", "text").execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable("mailpulse_email").dropColumn("suppressed_recipients").execute();
    await db.schema.dropTable("mailpulse_suppression").execute();
  },
};
