import type { Kysely, Selectable } from "kysely";
import type { CampaignRecord, CampaignStore } from "../../ports/storage.js";
import type { MailPulseDialect } from "../dialect.js";
import { toCount, toDate, toDateOrNull } from "../mappers.js";
import type { CampaignTable, MailPulseDatabase } from "../schema.js";

const campaignColumns = ["id", "organization_id", "name", "created_at", "archived_at"] as const;

/** A campaign row as the port's record (the service maps records to the API with `toApiCampaign`). */
function toCampaignRecord(
  row: Pick<Selectable<CampaignTable>, (typeof campaignColumns)[number]>,
): CampaignRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    createdAt: toDate(row.created_at),
    archivedAt: toDateOrNull(row.archived_at),
  };
}

/** {@link CampaignStore} on Kysely. */
export function createCampaignStore(db: Kysely<MailPulseDatabase>, dialect: MailPulseDialect): CampaignStore {
  return {
    async create(campaign, limits) {
      try {
        return await db.transaction().execute(async (trx) => {
          if (dialect.rowLocks) {
            // Serialise creations per organization so the limit check and the insert are atomic.
            await trx
              .selectFrom("mailpulse_organization")
              .select("id")
              .where("id", "=", campaign.organizationId)
              .forUpdate()
              .execute();
          }
          const taken = await trx
            .selectFrom("mailpulse_campaign")
            .select("id")
            .where("organization_id", "=", campaign.organizationId)
            .where("name", "=", campaign.name)
            .executeTakeFirst();
          if (taken) return "name_taken" as const;
          if (limits.maxActive !== undefined) {
            const { count } = await trx
              .selectFrom("mailpulse_campaign")
              .select((eb) => eb.fn.countAll().as("count"))
              .where("organization_id", "=", campaign.organizationId)
              .where("archived_at", "is", null)
              .executeTakeFirstOrThrow();
            if (toCount(count) >= limits.maxActive) return "limit_reached" as const;
          }
          await trx
            .insertInto("mailpulse_campaign")
            .values({
              id: campaign.id,
              organization_id: campaign.organizationId,
              name: campaign.name,
              created_at: campaign.createdAt.getTime(),
              archived_at: campaign.archivedAt?.getTime() ?? null,
            })
            .execute();
          return "created" as const;
        });
      } catch (error) {
        // A concurrent creation of the same name won the race.
        if (dialect.isUniqueViolation(error)) return "name_taken";
        throw error;
      }
    },
    async get(organizationId, id) {
      const row = await db
        .selectFrom("mailpulse_campaign")
        .select(campaignColumns)
        .where("organization_id", "=", organizationId)
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toCampaignRecord(row);
    },
    async findByName(organizationId, name) {
      const row = await db
        .selectFrom("mailpulse_campaign")
        .select(campaignColumns)
        .where("organization_id", "=", organizationId)
        .where("name", "=", name)
        .executeTakeFirst();
      return row && toCampaignRecord(row);
    },
    async listActive(organizationId) {
      const rows = await db
        .selectFrom("mailpulse_campaign")
        .select(campaignColumns)
        .where("organization_id", "=", organizationId)
        .where("archived_at", "is", null)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .execute();
      return rows.map(toCampaignRecord);
    },
    async archive(organizationId, id, at) {
      const result = await db
        .updateTable("mailpulse_campaign")
        .set({ archived_at: at.getTime() })
        .where("organization_id", "=", organizationId)
        .where("id", "=", id)
        .where("archived_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async rename(organizationId, id, name) {
      try {
        const result = await db
          .updateTable("mailpulse_campaign")
          .set({ name })
          .where("organization_id", "=", organizationId)
          .where("id", "=", id)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0 ? "renamed" : "missing";
      } catch (error) {
        // The (organization_id, name) unique constraint: another campaign has the name.
        if (dialect.isUniqueViolation(error)) return "name_taken";
        throw error;
      }
    },
  };
}
