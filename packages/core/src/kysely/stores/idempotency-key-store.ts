import type { Kysely, Selectable } from "kysely";
import type { IdempotencyRecord, IdempotencyStore } from "../../ports/storage.js";
import { toDate } from "../mappers.js";
import type { IdempotencyKeyTable, MailPulseDatabase } from "../schema.js";

function toRecord(row: Selectable<IdempotencyKeyTable>): IdempotencyRecord {
  return {
    fingerprint: row.fingerprint,
    response:
      row.response_status === null
        ? undefined
        : { status: row.response_status, body: row.response_body ?? "" },
    createdAt: toDate(row.created_at),
    expiresAt: toDate(row.expires_at),
  };
}

/** {@link IdempotencyStore} on Kysely: the primary key (organization, key) makes a claim atomic. */
export function createIdempotencyKeyStore(db: Kysely<MailPulseDatabase>): IdempotencyStore {
  async function get(organizationId: string, key: string) {
    const row = await db
      .selectFrom("mailpulse_idempotency_key")
      .selectAll()
      .where("organization_id", "=", organizationId)
      .where("idempotency_key", "=", key)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  return {
    async claim(organizationId, key, { fingerprint, now, expiresAt }) {
      // An expired record is gone as far as callers can tell, whether or not the purge ran yet.
      await db
        .deleteFrom("mailpulse_idempotency_key")
        .where("organization_id", "=", organizationId)
        .where("idempotency_key", "=", key)
        .where("expires_at", "<=", now.getTime())
        .execute();
      const inserted = await db
        .insertInto("mailpulse_idempotency_key")
        .values({
          organization_id: organizationId,
          idempotency_key: key,
          fingerprint,
          response_status: null,
          response_body: null,
          created_at: now.getTime(),
          expires_at: expiresAt.getTime(),
        })
        .onConflict((conflict) => conflict.columns(["organization_id", "idempotency_key"]).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { claimed: true };
      const existing = await get(organizationId, key);
      // Deleted between the insert and the read (released, or purged): claim again.
      if (!existing) return this.claim(organizationId, key, { fingerprint, now, expiresAt });
      return { claimed: false, existing };
    },
    get,
    async complete(organizationId, key, response) {
      await db
        .updateTable("mailpulse_idempotency_key")
        .set({ response_status: response.status, response_body: response.body })
        .where("organization_id", "=", organizationId)
        .where("idempotency_key", "=", key)
        .execute();
    },
    async release(organizationId, key) {
      await db
        .deleteFrom("mailpulse_idempotency_key")
        .where("organization_id", "=", organizationId)
        .where("idempotency_key", "=", key)
        .where("response_status", "is", null)
        .execute();
    },
    async purgeExpired(now) {
      const result = await db
        .deleteFrom("mailpulse_idempotency_key")
        .where("expires_at", "<=", now.getTime())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
