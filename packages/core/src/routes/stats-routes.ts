import { z } from "zod";
import { defineRoute } from "../http/route.js";
import { getCampaignStatsDocs, getGlobalStatsDocs } from "../openapi/operations/stats-docs.js";
import type { StatsService } from "../services/stats-service.js";
import { idParams } from "./id-params.js";

/** `/api/campaigns/:id/stats` and `/api/stats` routes. */
export function statsRoutes(stats: StatsService) {
  return [
    defineRoute({
      method: "GET",
      path: "/campaigns/:id/stats",
      docs: getCampaignStatsDocs,
      params: idParams,
      // The query is only read here: the service owns the period's default and meaning, and its
      // 400 lists the accepted formats.
      query: z.object({ period: z.string().optional() }),
      handle: ({ organizationId, params, query }) =>
        stats.campaign(organizationId, { campaignId: params.id, period: query.period }),
    }),
    defineRoute({
      method: "GET",
      path: "/stats",
      docs: getGlobalStatsDocs,
      handle: ({ organizationId }) => stats.global(organizationId),
    }),
  ];
}
