import type { Migration } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * `0005_email_tags`: the `tags` of a send, one row per name, so they can be returned with the
 * email and filtered on (`organization_id, name, value` is the events API's filter).
 * First of the two 0005s (`migration-provider.ts` says why they share the number).
 */
export const emailTags: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("mailpulse_email_tag")
      .addColumn("email_id", "text", (c) => c.notNull().references("mailpulse_email.id").onDelete("cascade"))
      .addColumn("organization_id", "text", (c) => c.notNull())
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("mailpulse_email_tag_pk", ["email_id", "name"])
      .execute();
    await db.schema
      .createIndex("mailpulse_email_tag_filter")
      .on("mailpulse_email_tag")
      .columns(["organization_id", "name", "value"])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("mailpulse_email_tag").execute();
  },
};
