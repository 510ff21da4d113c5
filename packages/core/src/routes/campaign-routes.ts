import { z } from "zod";
import { defineRoute } from "../http/route.js";
import { type CampaignService, createCampaignSchema } from "../services/campaign-service.js";

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
      body: createCampaignSchema,
      status: 201,
      handle: ({ organizationId, body }) => campaigns.create(organizationId, body),
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
