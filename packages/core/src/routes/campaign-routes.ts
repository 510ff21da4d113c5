import { defineRoute } from "../http/route.js";
import {
  archiveCampaignDocs,
  createCampaignDocs,
  getCampaignDocs,
  listCampaignsDocs,
} from "../openapi/operations/campaign-docs.js";
import type { CampaignService } from "../services/campaign-service.js";
import { type CreateCampaignInput, createCampaignSchema } from "../services/campaigns/campaign-input.js";
import { idParams } from "./id-params.js";

/** `/api/campaigns` routes. */
export function campaignRoutes(campaigns: CampaignService) {
  return [
    defineRoute({
      method: "GET",
      path: "/campaigns",
      docs: listCampaignsDocs,
      handle: async ({ organizationId }) => ({ campaigns: await campaigns.list(organizationId) }),
    }),
    defineRoute({
      method: "POST",
      path: "/campaigns",
      docs: createCampaignDocs,
      input: { from: "body", schema: createCampaignSchema },
      status: 201,
      // Unparsed JSON typed as what it should be: the service parses it.
      handle: ({ organizationId, input }) => campaigns.create(organizationId, input as CreateCampaignInput),
    }),
    defineRoute({
      method: "GET",
      path: "/campaigns/:id",
      docs: getCampaignDocs,
      params: idParams,
      handle: ({ organizationId, params }) => campaigns.get(organizationId, params.id),
    }),
    defineRoute({
      method: "POST",
      path: "/campaigns/:id/archive",
      docs: archiveCampaignDocs,
      params: idParams,
      handle: async ({ organizationId, params }) => {
        await campaigns.archive(organizationId, params.id);
        return { success: true };
      },
    }),
  ];
}
