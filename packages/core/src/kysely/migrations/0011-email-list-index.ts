import type { Migration } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * `0011_email_list_index`: `GET /api/emails` pages an organization's emails newest first by
 * `(created_at, id)`. The existing email indexes lead with `status` or `campaign_id` and order by
 * `sent_at`, so without this one every page sorted all of the organization's emails. With it, a
 * page (with or without a date range) reads `limit` rows from the index; a `status` filter walks
 * the same index and skips the rows of other statuses.
 */
export const emailListIndex: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createIndex("mailpulse_email_org_created")
      .on("mailpulse_email")
      .columns(["organization_id", "created_at", "id"])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("mailpulse_email_org_created").execute();
  },
};
