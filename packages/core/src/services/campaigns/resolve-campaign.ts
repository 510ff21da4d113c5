import { MailPulseError } from "../../errors.js";
import type { CampaignRecord, CampaignStore } from "../../ports/storage.js";
import type { ServiceDeps } from "../service-context.js";
import { insertCampaign, type PlanLimitsOf } from "./insert-campaign.js";

/**
 * The campaign an email is sent in, by name or id. A name that does not exist yet creates the
 * campaign (within the plan limit). CAMPAIGN_ARCHIVED when it is archived.
 */
export type ResolveCampaign = (organizationId: string, nameOrId: string) => Promise<CampaignRecord>;

/** The campaign named `nameOrId` (its name first, then its id), or undefined; never creates one. */
export async function findCampaign(
  campaigns: CampaignStore,
  organizationId: string,
  nameOrId: string,
): Promise<CampaignRecord | undefined> {
  return (
    (await campaigns.findByName(organizationId, nameOrId)) ?? (await campaigns.get(organizationId, nameOrId))
  );
}

/**
 * Builds the {@link ResolveCampaign} the email service uses. Internal: it is how sending finds
 * its campaign, not something a host calls, so it is not on the public `CampaignService`.
 */
export function createCampaignResolver(deps: ServiceDeps, limits: PlanLimitsOf): ResolveCampaign {
  const { storage } = deps;
  return async (organizationId, nameOrId) => {
    let record = await findCampaign(storage.campaigns, organizationId, nameOrId);
    if (!record) {
      try {
        record = await insertCampaign(deps, limits, organizationId, nameOrId);
      } catch (error) {
        // Another request created it between our lookup and insert: use theirs.
        const raced = await storage.campaigns.findByName(organizationId, nameOrId);
        if (!raced) throw error;
        record = raced;
      }
    }
    if (record.archivedAt) {
      throw new MailPulseError(
        "CAMPAIGN_ARCHIVED",
        `Campaign "${record.name}" is archived and accepts no new emails`,
      );
    }
    return record;
  };
}
