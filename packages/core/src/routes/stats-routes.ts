import { z } from "zod";
import { defineRoute } from "../http/route.js";
import { errorDocs, jsonAnswer } from "../openapi/answer-docs.js";
import { campaignPeriodStatsSchema, globalStatsSchema } from "../services/stats/stats-answers.js";
import type { StatsService } from "../services/stats-service.js";
import { idParams } from "./id-params.js";

/** `/api/campaigns/:id/stats` and `/api/stats` routes. */
export function statsRoutes(stats: StatsService) {
  return [
    defineRoute({
      method: "GET",
      path: "/campaigns/:id/stats",
      docs: {
        tags: ["Statistics", "Campaigns"],
        operationId: "getCampaignStats",
        summary: "Campaign statistics over a period",
        description:
          "A campaign's statistics (archived campaigns too) over a period: emails sent in the period, open and click events in the period, a zero-filled daily series and the most clicked URLs. Days are UTC days.",
        parameters: {
          id: {
            description: "The campaign id.",
          },
          period: {
            description:
              "`7d`, `30d` or `90d`: today and the N-1 UTC days before it, from 00:00:00.000Z of the first day up to now. `YYYY-MM-DD,YYYY-MM-DD`: an inclusive range of whole UTC days (spaces around the comma tolerated), at most 366 days, ending on or after its start.",
            // The service parses the period (parsePeriod); its grammar is stated here.
            schema: {
              type: "string",
              default: "30d",
              pattern: "^(7d|30d|90d|\\d{4}-\\d{2}-\\d{2}\\s*,\\s*\\d{4}-\\d{2}-\\d{2})$",
            },
            examples: {
              last7: {
                value: "7d",
              },
              range: {
                value: "2026-02-01,2026-02-28",
              },
            },
          },
        },
        responses: {
          "200": jsonAnswer("The statistics.", campaignPeriodStatsSchema),
          "400": errorDocs("`period` is not one of the accepted formats; or the path is malformed.", {
            badPeriod:
              'Invalid period "2026-02-30,2026-03-01": 2026-02-30 is not a calendar date. Accepted formats: 7d, 30d, 90d, or an inclusive date range YYYY-MM-DD,YYYY-MM-DD of at most 366 days',
          }),
          "404": {
            $ref: "#/components/responses/CampaignNotFound",
          },
        },
      },
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
      docs: {
        tags: ["Statistics"],
        operationId: "getGlobalStats",
        summary: "Organization-wide statistics",
        description:
          "All-time totals over every sent (or registered) email of the organization: all campaigns, archived ones included, and emails without a campaign.",
        responses: {
          "200": jsonAnswer("The totals.", globalStatsSchema),
        },
      },
      handle: ({ organizationId }) => stats.global(organizationId),
    }),
  ];
}
