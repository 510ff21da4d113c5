import type { Migration } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * `0005_idempotency_keys`: the `Idempotency-Key`s of the sending routes, per organization, with
 * the answer of the request that claimed each; `expires_at` is indexed for the purge job.
 * Second of the two 0005s: its name sorts after `0005_email_tags`, so it runs after it.
 */
export const idempotencyKeys: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("mailpulse_idempotency_key")
      .addColumn("organization_id", "text", (c) =>
        c.notNull().references("mailpulse_organization.id").onDelete("cascade"),
      )
      .addColumn("idempotency_key", "text", (c) => c.notNull())
      .addColumn("fingerprint", "text", (c) => c.notNull())
      .addColumn("response_status", "integer")
      .addColumn("response_body", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("mailpulse_idempotency_key_pk", ["organization_id", "idempotency_key"])
      .execute();
    await db.schema
      .createIndex("mailpulse_idempotency_key_expiry")
      .on("mailpulse_idempotency_key")
      .column("expires_at")
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("mailpulse_idempotency_key").execute();
  },
};
