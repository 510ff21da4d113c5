import { MailPulseError, notFound } from "../errors.js";
import type { CampaignRecord } from "../ports/storage.js";
import { type CreateCampaignInput, createCampaignSchema } from "./campaigns/campaign-input.js";
import { percentage } from "./rates.js";
import type { PlanLimits, ServiceDeps } from "./service-context.js";
import { parseInput } from "./validation/parse-input.js";

/** A campaign as the API returns it. */
export interface Campaign {
  id: string;
  name: string;
  createdAt: string;
}

/** `GET /api/campaigns/:id`: the campaign with its totals, links and emails. */
export interface CampaignDetail extends Campaign {
  stats: {
    totalEmails: number;
    totalOpens: number;
    totalClicks: number;
    openRate: number;
    clickRate: number;
  };
  links: Array<{ url: string; clicks: number }>;
  emails: Array<{
    id: string;
    trackingId: string;
    recipient: string;
    subject: string;
    createdAt: string;
    opens: number;
    clicks: number;
  }>;
}

/** Campaigns of an organization. */
export interface CampaignService {
  /**
   * Creates a campaign: VALIDATION_FAILED for an invalid input, CONFLICT when the name exists,
   * PLAN_LIMIT_REACHED past the plan limit.
   */
  create(organizationId: string, input: CreateCampaignInput): Promise<Campaign>;
  /** Non-archived campaigns, newest first. */
  list(organizationId: string): Promise<Campaign[]>;
  /** The campaign with statistics; NOT_FOUND for unknown or foreign ids. */
  get(organizationId: string, id: string): Promise<CampaignDetail>;
  /** Archives the campaign; CAMPAIGN_ARCHIVED when it already is, NOT_FOUND when missing. */
  archive(organizationId: string, id: string): Promise<void>;
  /**
   * The campaign an email is sent in, by name or id. A name that does not exist yet creates the
   * campaign (within the plan limit). CAMPAIGN_ARCHIVED when it is archived.
   */
  resolveForSending(organizationId: string, nameOrId: string): Promise<CampaignRecord>;
}

/** Options of {@link createCampaignService}. */
export interface CampaignServiceOptions {
  limits: (organizationId: string) => PlanLimits | Promise<PlanLimits>;
  /** How many emails the campaign detail lists, newest first. */
  detailEmailLimit: number;
}

/** The API shape of a campaign. */
export function toCampaign(record: CampaignRecord): Campaign {
  return { id: record.id, name: record.name, createdAt: record.createdAt.toISOString() };
}

/** Builds the {@link CampaignService}. */
export function createCampaignService(deps: ServiceDeps, options: CampaignServiceOptions): CampaignService {
  const { storage, clock, createId } = deps;

  async function insert(organizationId: string, name: string): Promise<CampaignRecord> {
    const { maxCampaigns } = await options.limits(organizationId);
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

  async function getRecord(organizationId: string, id: string): Promise<CampaignRecord> {
    const record = await storage.campaigns.get(organizationId, id);
    if (!record) throw notFound("Campaign");
    return record;
  }

  return {
    async create(organizationId, input) {
      const { name } = parseInput(createCampaignSchema, input, "campaigns.create");
      return toCampaign(await insert(organizationId, name));
    },
    async list(organizationId) {
      return (await storage.campaigns.listActive(organizationId)).map(toCampaign);
    },
    async get(organizationId, id) {
      const record = await getRecord(organizationId, id);
      const [totals, links, emails] = await Promise.all([
        storage.stats.campaignTotals(organizationId, id),
        storage.stats.campaignLinks(organizationId, id),
        storage.stats.campaignEmails(organizationId, id, options.detailEmailLimit),
      ]);
      return {
        ...toCampaign(record),
        stats: {
          totalEmails: totals.totalEmails,
          totalOpens: totals.totalOpens,
          totalClicks: totals.totalClicks,
          openRate: percentage(totals.openedEmails, totals.totalEmails),
          clickRate: percentage(totals.clickedEmails, totals.totalEmails),
        },
        links,
        emails: emails.map((email) => ({ ...email, createdAt: email.createdAt.toISOString() })),
      };
    },
    async archive(organizationId, id) {
      const record = await getRecord(organizationId, id);
      if (record.archivedAt || !(await storage.campaigns.archive(organizationId, id, clock.now()))) {
        throw new MailPulseError("CAMPAIGN_ARCHIVED", "Campaign is already archived");
      }
    },
    async resolveForSending(organizationId, nameOrId) {
      const found =
        (await storage.campaigns.findByName(organizationId, nameOrId)) ??
        (await storage.campaigns.get(organizationId, nameOrId));
      let record = found;
      if (!record) {
        try {
          record = await insert(organizationId, nameOrId);
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
    },
  };
}
