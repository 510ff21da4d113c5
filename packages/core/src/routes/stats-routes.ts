import { z } from "zod";
import { defineRoute } from "../http/route.js";
import type { StatsService } from "../services/stats-service.js";

/** `/api/campaigns/:id/stats` and `/api/stats` routes. */
export function statsRoutes(stats: StatsService) {
  return [
    defineRoute({
      method: "GET",
      path: "/api/campaigns/:id/stats",
      params: z.object({ id: z.string().min(1) }),
      // The period itself is parsed by the service, whose 400 lists the accepted formats.
      query: z.object({ period: z.string().default("30d") }),
      handle: ({ organizationId, params, query }) => stats.campaign(organizationId, params.id, query.period),
    }),
    defineRoute({
      method: "GET",
      path: "/api/stats",
      handle: ({ organizationId }) => stats.global(organizationId),
    }),
  ];
}
