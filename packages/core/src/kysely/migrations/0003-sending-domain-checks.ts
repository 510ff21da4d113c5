import { type Migration, sql } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * `0003_sending_domain_checks`: what the sending-domain API needs beyond the initial table: the
 * DKIM public key (the platform publishes it; deriving it would mean decrypting every private
 * key), the count of failed re-checks in a row (three send a verified domain back to pending), and
 * "verified by one organization at most" as a partial unique index, so two organizations
 * verifying the same name at once cannot both win.
 */
export const sendingDomainChecks: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable("mailpulse_sending_domain")
      .addColumn("dkim_public_key", "text", (c) => c.notNull().defaultTo(""))
      .execute();
    await db.schema
      .alterTable("mailpulse_sending_domain")
      .addColumn("failed_checks", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex("mailpulse_sending_domain_verified_once")
      .on("mailpulse_sending_domain")
      .column("domain")
      .unique()
      .where(sql.ref("status"), "=", sql.lit("verified"))
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("mailpulse_sending_domain_verified_once").execute();
    await db.schema.alterTable("mailpulse_sending_domain").dropColumn("failed_checks").execute();
    await db.schema.alterTable("mailpulse_sending_domain").dropColumn("dkim_public_key").execute();
  },
};
