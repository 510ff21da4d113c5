import type { Kysely } from "kysely";
import type { Organization, OrganizationStore } from "../../ports/storage.js";
import type { MailPulseDialect } from "../dialect.js";
import { toDate, toDateOrNull } from "../mappers.js";
import type { MailPulseDatabase } from "../schema.js";

/** {@link OrganizationStore} on Kysely. */
export function createOrganizationStore(
  db: Kysely<MailPulseDatabase>,
  dialect: MailPulseDialect,
): OrganizationStore {
  const columns = ["id", "name", "created_at"] as const;
  const toOrganization = (row: { id: string; name: string; created_at: number | string }): Organization => ({
    id: row.id,
    name: row.name,
    createdAt: toDate(row.created_at),
  });

  return {
    async create(organization) {
      await db
        .insertInto("mailpulse_organization")
        .values({
          id: organization.id,
          name: organization.name,
          created_at: organization.createdAt.getTime(),
          custom_domain: null,
          custom_domain_verified_at: null,
        })
        .execute();
    },
    async get(id) {
      const row = await db
        .selectFrom("mailpulse_organization")
        .select(columns)
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toOrganization(row);
    },
    async list() {
      const rows = await db
        .selectFrom("mailpulse_organization")
        .select(columns)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toOrganization);
    },
    async getCustomDomain(id) {
      const row = await db
        .selectFrom("mailpulse_organization")
        .select(["custom_domain", "custom_domain_verified_at"])
        .where("id", "=", id)
        .executeTakeFirst();
      if (!row?.custom_domain) return undefined;
      return { domain: row.custom_domain, verifiedAt: toDateOrNull(row.custom_domain_verified_at) };
    },
    async setCustomDomain(id, domain) {
      try {
        await db
          .updateTable("mailpulse_organization")
          .set({ custom_domain: domain, custom_domain_verified_at: null })
          .where("id", "=", id)
          .execute();
        return true;
      } catch (error) {
        if (dialect.isUniqueViolation(error)) return false;
        throw error;
      }
    },
    async markCustomDomainVerified(id, at) {
      await db
        .updateTable("mailpulse_organization")
        .set({ custom_domain_verified_at: at.getTime() })
        .where("id", "=", id)
        .where("custom_domain", "is not", null)
        .execute();
    },
  };
}
