import { type Migration, sql } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * `0002_event_campaign_click_index`: a covering index over click events only, for the period's
 * top links: the scan reads the campaign's clicks of the period straight from the index (no table
 * rows, no open events), so its cost follows the clicks asked about. Partial indexes exist in
 * SQLite and PostgreSQL alike.
 */
export const eventCampaignClickIndex: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createIndex("mailpulse_event_campaign_click")
      .on("mailpulse_event")
      .columns(["campaign_id", "occurred_at", "link_id"])
      .where(sql.ref("type"), "=", sql.lit("click"))
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("mailpulse_event_campaign_click").execute();
  },
};
