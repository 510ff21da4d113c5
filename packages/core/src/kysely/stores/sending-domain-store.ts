import type { Kysely } from "kysely";
import type { SendingDomainStore } from "../../ports/storage.js";
import type { MailPulseDatabase } from "../schema.js";

/** {@link SendingDomainStore} on Kysely. */
export function createSendingDomainStore(db: Kysely<MailPulseDatabase>): SendingDomainStore {
  return {
    async create(domain) {
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
          created_at: domain.createdAt.getTime(),
          verified_at: domain.verifiedAt?.getTime() ?? null,
          last_checked_at: null,
        })
        .execute();
    },
    async findVerified(organizationId, domain) {
      const row = await db
        .selectFrom("mailpulse_sending_domain")
        .select(["domain", "dkim_selector", "dkim_private_key"])
        .where("organization_id", "=", organizationId)
        .where("domain", "=", domain)
        .where("status", "=", "verified")
        .executeTakeFirst();
      return (
        row && { domain: row.domain, dkimSelector: row.dkim_selector, dkimPrivateKey: row.dkim_private_key }
      );
    },
  };
}
