import { type Kysely, type Selectable, sql } from "kysely";
import type { SuppressionRecord, SuppressionStore } from "../../ports/storage.js";
import { normalizeAddress } from "../../util/normalize-address.js";
import { toDate } from "../mappers.js";
import type { MailPulseDatabase, SuppressionTable } from "../schema.js";

function toSuppressionRecord(row: Selectable<SuppressionTable>): SuppressionRecord {
  return {
    organizationId: row.organization_id,
    address: row.address,
    reason: row.reason,
    sourceEmailId: row.source_email_id,
    status: row.status,
    diagnostic: row.diagnostic,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

/** {@link SuppressionStore} on Kysely. */
export function createSuppressionStore(db: Kysely<MailPulseDatabase>): SuppressionStore {
  return {
    async add(organizationId, entries, at) {
      // The first entry of an address given twice wins, as the first suppression of a stored one does.
      const byAddress = new Map<string, (typeof entries)[number]>();
      for (const entry of entries) {
        const address = normalizeAddress(entry.address);
        if (!byAddress.has(address)) byAddress.set(address, { ...entry, address });
      }
      if (byAddress.size === 0) return [];
      const time = at.getTime();
      return db.transaction().execute(async (trx) => {
        // `on conflict do nothing` answers only the rows it inserted: what was new, even when a
        // concurrent call suppressed the same address first.
        const inserted = await trx
          .insertInto("mailpulse_suppression")
          .values(
            [...byAddress.values()].map((entry) => ({
              organization_id: organizationId,
              address: entry.address,
              reason: entry.reason,
              source_email_id: entry.sourceEmailId,
              status: entry.status,
              diagnostic: entry.diagnostic,
              created_at: time,
              updated_at: time,
            })),
          )
          .onConflict((conflict) => conflict.columns(["organization_id", "address"]).doNothing())
          .returning("address")
          .execute();
        const added = new Set(inserted.map((row) => row.address));
        const repeated = [...byAddress.keys()].filter((address) => !added.has(address));
        if (repeated.length > 0) {
          await trx
            .updateTable("mailpulse_suppression")
            .set({ updated_at: time })
            .where("organization_id", "=", organizationId)
            .where("address", "in", repeated)
            .execute();
        }
        return [...byAddress.keys()].filter((address) => added.has(address));
      });
    },

    async findByAddresses(organizationId, addresses) {
      const wanted = [...new Set(addresses.map(normalizeAddress))];
      if (wanted.length === 0) return [];
      const rows = await db
        .selectFrom("mailpulse_suppression")
        .selectAll()
        .where("organization_id", "=", organizationId)
        .where("address", "in", wanted)
        .execute();
      return rows.map(toSuppressionRecord);
    },

    async list(organizationId, query) {
      let select = db
        .selectFrom("mailpulse_suppression")
        .selectAll()
        .where("organization_id", "=", organizationId);
      if (query.after !== undefined) select = select.where("address", ">", normalizeAddress(query.after));
      if (query.reason !== undefined) select = select.where("reason", "=", query.reason);
      if (query.address !== undefined) select = select.where("address", "=", normalizeAddress(query.address));
      if (query.addressPrefix !== undefined) {
        const prefix = normalizeAddress(query.addressPrefix);
        // A comparison of the leading characters rather than LIKE: no wildcard to escape, and the
        // same meaning in SQLite (whose LIKE ignores case) and PostgreSQL.
        select = select.where(sql<boolean>`substr(address, 1, ${prefix.length}) = ${prefix}`);
      }
      const rows = await select.orderBy("address").limit(query.limit).execute();
      return rows.map(toSuppressionRecord);
    },

    async delete(organizationId, address) {
      const result = await db
        .deleteFrom("mailpulse_suppression")
        .where("organization_id", "=", organizationId)
        .where("address", "=", normalizeAddress(address))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
