import type { Kysely, Selectable } from "kysely";
import type { SendingDomainRecord, SendingDomainStore } from "../../ports/storage.js";
import type { MailPulseDialect } from "../dialect.js";
import { toDate, toDateOrNull } from "../mappers.js";
import type { MailPulseDatabase, SendingDomainTable } from "../schema.js";

function toRecord(row: Selectable<SendingDomainTable>): SendingDomainRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    domain: row.domain,
    status: row.status,
    records: row.records,
    dkimSelector: row.dkim_selector,
    dkimPrivateKey: row.dkim_private_key,
    dkimPublicKey: row.dkim_public_key,
    createdAt: toDate(row.created_at),
    verifiedAt: toDateOrNull(row.verified_at),
    lastCheckedAt: toDateOrNull(row.last_checked_at),
    failedChecks: Number(row.failed_checks),
  };
}

/** {@link SendingDomainStore} on Kysely. */
export function createSendingDomainStore(
  db: Kysely<MailPulseDatabase>,
  dialect: MailPulseDialect,
): SendingDomainStore {
  const table = "mailpulse_sending_domain" as const;
  return {
    async create(domain, limit) {
      try {
        return await db.transaction().execute(async (trx) => {
          if (limit !== undefined) {
            // Serialises creates of one organization, so two cannot both pass the limit. SQLite
            // transactions already run one at a time.
            if (dialect.rowLocks) {
              await trx
                .selectFrom("mailpulse_organization")
                .select("id")
                .where("id", "=", domain.organizationId)
                .forUpdate()
                .execute();
            }
            const { count } = await trx
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number | string>().as("count"))
              .where("organization_id", "=", domain.organizationId)
              .executeTakeFirstOrThrow();
            if (Number(count) >= limit) return "limit" as const;
          }
          await insert(trx, domain);
          return "created" as const;
        });
      } catch (error) {
        // (organization_id, domain) is unique; a verified name taken elsewhere is the service's check.
        if (dialect.isUniqueViolation(error)) return "exists";
        throw error;
      }
    },
    async findVerified(organizationId, domain) {
      const row = await db
        .selectFrom(table)
        .select(["domain", "dkim_selector", "dkim_private_key"])
        .where("organization_id", "=", organizationId)
        .where("domain", "=", domain)
        .where("status", "=", "verified")
        .executeTakeFirst();
      return (
        row && { domain: row.domain, dkimSelector: row.dkim_selector, dkimPrivateKey: row.dkim_private_key }
      );
    },
    async findVerifiedOwner(domain) {
      const row = await db
        .selectFrom(table)
        .select("organization_id")
        .where("domain", "=", domain)
        .where("status", "=", "verified")
        .orderBy("created_at")
        .executeTakeFirst();
      return row?.organization_id;
    },
    async isVerifiedElsewhere(organizationId, domain) {
      const row = await db
        .selectFrom(table)
        .select("id")
        .where("organization_id", "!=", organizationId)
        .where("domain", "=", domain)
        .where("status", "=", "verified")
        .executeTakeFirst();
      return row !== undefined;
    },
    async get(organizationId, id) {
      const row = await db
        .selectFrom(table)
        .selectAll()
        .where("organization_id", "=", organizationId)
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async list(organizationId) {
      const rows = await db
        .selectFrom(table)
        .selectAll()
        .where("organization_id", "=", organizationId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toRecord);
    },
    async listPage(organizationId, { limit, after }) {
      let query = db.selectFrom(table).selectAll().where("organization_id", "=", organizationId);
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb("created_at", ">", after.createdAt),
            eb.and([eb("created_at", "=", after.createdAt), eb("id", ">", after.id)]),
          ]),
        );
      }
      const rows = await query.orderBy("created_at").orderBy("id").limit(limit).execute();
      return rows.map(toRecord);
    },
    async listAll() {
      const rows = await db.selectFrom(table).selectAll().orderBy("created_at").orderBy("id").execute();
      return rows.map(toRecord);
    },
    async delete(organizationId, id) {
      const result = await db
        .deleteFrom(table)
        .where("organization_id", "=", organizationId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async saveCheck(organizationId, id, check) {
      try {
        const result = await db
          .updateTable(table)
          .set({
            status: check.status,
            records: check.records,
            verified_at: check.verifiedAt?.getTime() ?? null,
            last_checked_at: check.lastCheckedAt.getTime(),
            failed_checks: check.failedChecks,
          })
          .where("organization_id", "=", organizationId)
          .where("id", "=", id)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0 ? "saved" : "missing";
      } catch (error) {
        // The partial unique index on verified names: another organization verified it first.
        if (dialect.isUniqueViolation(error)) return "taken";
        throw error;
      }
    },
  };
}

/** Inserts one sending domain row. */
async function insert(db: Kysely<MailPulseDatabase>, domain: SendingDomainRecord): Promise<void> {
  await db
    .insertInto("mailpulse_sending_domain")
    .values({
      id: domain.id,
      organization_id: domain.organizationId,
      domain: domain.domain,
      status: domain.status,
      records: domain.records,
      dkim_selector: domain.dkimSelector,
      dkim_private_key: domain.dkimPrivateKey,
      dkim_public_key: domain.dkimPublicKey,
      created_at: domain.createdAt.getTime(),
      verified_at: domain.verifiedAt?.getTime() ?? null,
      last_checked_at: domain.lastCheckedAt?.getTime() ?? null,
      failed_checks: domain.failedChecks,
    })
    .execute();
}
