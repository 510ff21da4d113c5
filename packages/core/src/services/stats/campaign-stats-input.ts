import { z } from "zod";
import { schemaFor } from "../validation/schema-for.js";

/** What `stats.campaign` takes (the path and query of `GET /api/campaigns/:id/stats`). */
export interface CampaignStatsInput {
  campaignId: string;
  /** `7d`, `30d` (default), `90d`, or an inclusive range `YYYY-MM-DD,YYYY-MM-DD` of at most 366 days. */
  period?: string;
}

/** Parses a {@link CampaignStatsInput}; the period's meaning is `parsePeriod`'s, at the service's clock. */
export const campaignStatsSchema = schemaFor<CampaignStatsInput>()(
  z.object({
    campaignId: z.string().min(1, "must not be empty"),
    period: z.string().default("30d"),
  }),
);
