import { z } from "zod";
import { defineRoute } from "../http/route.js";
import type { CampaignService } from "../services/campaign-service.js";
import { type CreateCampaignInput, createCampaignSchema } from "../services/campaigns/campaign-input.js";

const idParams = z.object({ id: z.string().min(1) });

/** `/api/campaigns` routes. */
export function campaignRoutes(campaigns: CampaignService) {
  return [
    defineRoute({
      method: "GET",
      path: "/api/campaigns",
      handle: async ({ organizationId }) => ({ campaigns: await campaigns.list(organizationId) }),
    }),
    defineRoute({
      method: "POST",
      path: "/api/campaigns",
      input: { from: "body", schema: createCampaignSchema },
      status: 201,
      // Unparsed JSON typed as what it should be: the service parses it.
      handle: ({ organizationId, input }) => campaigns.create(organizationId, input as CreateCampaignInput),
    }),
    defineRoute({
      method: "GET",
      path: "/api/campaigns/:id",
      params: idParams,
      handle: ({ organizationId, params }) => campaigns.get(organizationId, params.id),
    }),
    defineRoute({
      method: "POST",
      path: "/api/campaigns/:id/archive",
      params: idParams,
      handle: async ({ organizationId, params }) => {
        await campaigns.archive(organizationId, params.id);
        return { success: true };
      },
    }),
  ];
}
