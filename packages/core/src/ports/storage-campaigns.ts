/** Campaigns: named groups of emails, with a per-organization limit on active ones. */

/** A campaign. `archivedAt` is set once archived; archived campaigns accept no new emails. */
export interface CampaignRecord {
  id: string;
  organizationId: string;
  name: string;
  createdAt: Date;
  archivedAt: Date | null;
}

/** Result of {@link CampaignStore.create}. */
export type CreateCampaignResult = "created" | "name_taken" | "limit_reached";

/** Campaigns. */
export interface CampaignStore {
  /**
   * Inserts the campaign unless its name is taken in the organization (archived campaigns keep
   * their name) or the organization already has `maxActive` non-archived campaigns. The check and
   * the insert are one transaction, so concurrent creations cannot pass the limit.
   */
  create(campaign: CampaignRecord, limits: { maxActive?: number }): Promise<CreateCampaignResult>;
  /** The campaign of this organization, or `undefined`. */
  get(organizationId: string, id: string): Promise<CampaignRecord | undefined>;
  /** The campaign of this organization with this exact name, or `undefined`. */
  findByName(organizationId: string, name: string): Promise<CampaignRecord | undefined>;
  /** Non-archived campaigns, newest first. */
  listActive(organizationId: string): Promise<CampaignRecord[]>;
  /** Sets `archivedAt` if not yet archived. Returns false when it was already archived or is missing. */
  archive(organizationId: string, id: string, at: Date): Promise<boolean>;
  /**
   * Gives the campaign of this organization a new name, archived or not. `name_taken` when another
   * campaign of the organization has it (the unique name also holds against a concurrent rename or
   * creation), `missing` when the organization has no such campaign.
   */
  rename(organizationId: string, id: string, name: string): Promise<"renamed" | "name_taken" | "missing">;
}
