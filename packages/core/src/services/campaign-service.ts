import { MailPulseError, notFound } from "../errors.js";
import type { CampaignRecord } from "../ports/storage.js";
import type { Campaign, CampaignDetail } from "./campaigns/campaign-answers.js";
import { createCampaignSchema, renameCampaignSchema } from "./campaigns/campaign-input.js";
import { campaignLinksSchema, encodeCampaignLinkCursor } from "./campaigns/campaign-links-input.js";
import { insertCampaign, type PlanLimitsOf } from "./campaigns/insert-campaign.js";
import type { ServiceDeps } from "./service-context.js";
import { feedbackFigures } from "./stats/feedback-stats.js";
import { rateTotals } from "./stats/rated-totals.js";
import { type ValidatedMethod, validatedMethod } from "./validation/validated-method.js";

export type { Campaign, CampaignDetail };

/** A page of a campaign's links, in URL order; `nextCursor` is null on the last page. */
export interface CampaignLinkPage {
  links: Array<{ url: string; clicks: number }>;
  nextCursor: string | null;
}

/** Human figures of a campaign's detail: hits judged machine are left out (docs/measurement.md). */
export type HumanTotals = CampaignDetail["stats"]["human"];

/** Campaigns of an organization. */
export interface CampaignService {
  /**
   * Creates a campaign: VALIDATION_FAILED for an invalid input, CONFLICT when the name exists,
   * PLAN_LIMIT_REACHED past the plan limit.
   */
  create: ValidatedMethod<[organizationId: string], typeof createCampaignSchema, Campaign>;
  /** Non-archived campaigns, newest first. */
  list(organizationId: string): Promise<Campaign[]>;
  /**
   * The campaign with statistics; NOT_FOUND for unknown or foreign ids. Its `links` are the
   * `detailLinkLimit` most clicked; {@link CampaignService.links} pages through all of them.
   */
  get(organizationId: string, id: string): Promise<CampaignDetail>;
  /**
   * A page of the campaign's links with their clicks, in URL order; NOT_FOUND for unknown or
   * foreign ids, VALIDATION_FAILED for a bad `limit` or `cursor`.
   */
  links: ValidatedMethod<
    [organizationId: string, id: string],
    typeof campaignLinksSchema,
    CampaignLinkPage,
    true
  >;
  /** Archives the campaign; CAMPAIGN_ARCHIVED when it already is, NOT_FOUND when missing. */
  archive(organizationId: string, id: string): Promise<void>;
  /**
   * Renames the campaign (an archived one too) and returns it: VALIDATION_FAILED for an invalid
   * name, NOT_FOUND for unknown or foreign ids, CONFLICT when another campaign of the
   * organization has the name (as on create). Its own name again is accepted and changes nothing.
   */
  rename: ValidatedMethod<[organizationId: string, id: string], typeof renameCampaignSchema, Campaign>;
}

/** Options of {@link createCampaignService}. */
export interface CampaignServiceOptions {
  limits: PlanLimitsOf;
  /** How many emails the campaign detail lists, newest first. */
  detailEmailLimit: number;
  /**
   * How many links the campaign detail lists, most clicked first. Default 500: an email with
   * 42,000 links made a 5.6 MiB detail.
   */
  detailLinkLimit?: number;
}

/**
 * A campaign record in the API's shape: ISO times, without the organization and archive time.
 * (The store's row mapper is `toCampaignRecord`; the names say which side of the port each is on.)
 */
export function toApiCampaign(record: CampaignRecord): Campaign {
  return { id: record.id, name: record.name, createdAt: record.createdAt.toISOString() };
}

/** Builds the {@link CampaignService}. */
export function createCampaignService(deps: ServiceDeps, options: CampaignServiceOptions): CampaignService {
  const { storage, clock } = deps;

  async function getRecord(organizationId: string, id: string): Promise<CampaignRecord> {
    const record = await storage.campaigns.get(organizationId, id);
    if (!record) throw notFound("Campaign");
    return record;
  }

  return {
    create: validatedMethod(
      createCampaignSchema,
      "campaigns.create",
      { leading: 1 },
      async (organizationId: string, { name }) =>
        toApiCampaign(await insertCampaign(deps, options.limits, organizationId, name)),
    ),
    async list(organizationId) {
      return (await storage.campaigns.listActive(organizationId)).map(toApiCampaign);
    },
    async get(organizationId, id) {
      const record = await getRecord(organizationId, id);
      const [totals, links, emails, feedback] = await Promise.all([
        storage.stats.campaignTotals(organizationId, id),
        storage.stats.campaignLinks(organizationId, id, options.detailLinkLimit ?? 500),
        storage.stats.campaignEmails(organizationId, id, options.detailEmailLimit),
        storage.deliveryFeedback.totals(organizationId, { campaignId: id }),
      ]);
      const rated = rateTotals(totals);
      return {
        ...toApiCampaign(record),
        stats: {
          ...rated,
          ...feedbackFigures(feedback, totals.totalEmails),
          human: { ...rated.human, noInteraction: totals.totalEmails - totals.human.openedEmails },
        },
        links,
        emails: emails.map((email) => ({ ...email, createdAt: email.createdAt.toISOString() })),
      };
    },
    links: validatedMethod(
      campaignLinksSchema,
      "campaigns.links",
      { leading: 2, whenOmitted: {} },
      async (organizationId: string, id: string, { limit, cursor }): Promise<CampaignLinkPage> => {
        await getRecord(organizationId, id);
        // One row more than asked tells whether a next page exists without a count.
        const rows = await storage.stats.campaignLinksByUrl(organizationId, id, {
          limit: limit + 1,
          ...(cursor === undefined ? {} : { afterUrl: cursor }),
        });
        const links = rows.slice(0, limit);
        const last = links.at(-1);
        return {
          links,
          nextCursor: rows.length > limit && last ? encodeCampaignLinkCursor(last.url) : null,
        };
      },
    ),
    rename: validatedMethod(
      renameCampaignSchema,
      "campaigns.rename",
      { leading: 2 },
      async (organizationId: string, id: string, { name }) => {
        const outcome = await storage.campaigns.rename(organizationId, id, name);
        if (outcome === "missing") throw notFound("Campaign");
        if (outcome === "name_taken") {
          throw new MailPulseError("CONFLICT", `A campaign named "${name}" already exists`);
        }
        return toApiCampaign(await getRecord(organizationId, id));
      },
    ),
    async archive(organizationId, id) {
      const record = await getRecord(organizationId, id);
      if (record.archivedAt || !(await storage.campaigns.archive(organizationId, id, clock.now()))) {
        throw new MailPulseError("CAMPAIGN_ARCHIVED", "Campaign is already archived");
      }
    },
  };
}
