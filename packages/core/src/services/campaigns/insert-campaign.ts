import { MailPulseError } from "../../errors.js";
import type { CampaignRecord } from "../../ports/storage.js";
import type { PlanLimits, ServiceDeps } from "../service-context.js";

/** The plan limits of an organization (`MailPulseOptions.limits`). */
export type PlanLimitsOf = (organizationId: string) => PlanLimits | Promise<PlanLimits>;

/**
 * Stores a new campaign named `name` (already validated) within the organization's plan limit:
 * CONFLICT when the name is taken, PLAN_LIMIT_REACHED past the limit. Shared by
 * `campaigns.create` and the campaign a name creates when an email is sent into it.
 */
export async function insertCampaign(
  { storage, clock, createId }: ServiceDeps,
  limits: PlanLimitsOf,
  organizationId: string,
  name: string,
): Promise<CampaignRecord> {
  const { maxCampaigns } = await limits(organizationId);
  const record: CampaignRecord = {
    id: createId(),
    organizationId,
    name,
    createdAt: clock.now(),
    archivedAt: null,
  };
  const outcome = await storage.campaigns.create(record, { maxActive: maxCampaigns });
  if (outcome === "name_taken") {
    throw new MailPulseError("CONFLICT", `A campaign named "${name}" already exists`);
  }
  if (outcome === "limit_reached") {
    throw new MailPulseError(
      "PLAN_LIMIT_REACHED",
      `Campaign limit reached: your plan allows ${maxCampaigns} active campaigns; archive one or upgrade`,
    );
  }
  return record;
}
