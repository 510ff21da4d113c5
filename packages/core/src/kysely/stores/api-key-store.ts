import type { Kysely } from "kysely";
import type { ApiKeyStore } from "../../ports/storage.js";
import { toDate, toDateOrNull } from "../mappers.js";
import type { MailPulseDatabase } from "../schema.js";

/** {@link ApiKeyStore} on Kysely. */
export function createApiKeyStore(db: Kysely<MailPulseDatabase>): ApiKeyStore {
  return {
    async create(record, keyHash) {
      await db
        .insertInto("mailpulse_api_key")
        .values({
          id: record.id,
          organization_id: record.organizationId,
          name: record.name,
          key_hash: keyHash,
          key_prefix: record.prefix,
          created_at: record.createdAt.getTime(),
          revoked_at: record.revokedAt?.getTime() ?? null,
        })
        .execute();
    },
    async findActiveByHash(keyHash) {
      const row = await db
        .selectFrom("mailpulse_api_key")
        .select(["id", "organization_id"])
        .where("key_hash", "=", keyHash)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return row && { id: row.id, organizationId: row.organization_id };
    },
    async list(organizationId) {
      const rows = await db
        .selectFrom("mailpulse_api_key")
        .select(["id", "organization_id", "name", "key_prefix", "created_at", "revoked_at"])
        .where("organization_id", "=", organizationId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map((row) => ({
        id: row.id,
        organizationId: row.organization_id,
        name: row.name,
        prefix: row.key_prefix,
        createdAt: toDate(row.created_at),
        revokedAt: toDateOrNull(row.revoked_at),
      }));
    },
    async revoke(organizationId, id, at) {
      const existing = await db
        .selectFrom("mailpulse_api_key")
        .select("id")
        .where("organization_id", "=", organizationId)
        .where("id", "=", id)
        .executeTakeFirst();
      if (!existing) return false;
      await db
        .updateTable("mailpulse_api_key")
        .set({ revoked_at: at.getTime() })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .execute();
      return true;
    },
  };
}
