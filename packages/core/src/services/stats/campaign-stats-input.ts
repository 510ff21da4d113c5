import { z } from "zod";

/**
 * What `stats.campaign` takes (the path and query of `GET /api/campaigns/:id/stats`); the
 * period's meaning is `parsePeriod`'s, at the service's clock.
 */
export const campaignStatsSchema = z.object({
  campaignId: z.string().min(1, "must not be empty"),
  period: z
    .string()
    .default("30d")
    .describe(
      "`7d`, `30d` (default), `90d`, or an inclusive range `YYYY-MM-DD,YYYY-MM-DD` of at most 366 days.",
    ),
});

/** What `stats.campaign` takes: {@link campaignStatsSchema}'s input. */
export type CampaignStatsInput = z.input<typeof campaignStatsSchema>;
