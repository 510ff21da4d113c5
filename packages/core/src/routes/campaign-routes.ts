import { jsonResponse } from "../http/json-response.js";
import { defineRoute } from "../http/route.js";
import {
  archiveCampaignDocs,
  createCampaignDocs,
  getCampaignDocs,
  listCampaignLinksDocs,
  listCampaignsDocs,
} from "../openapi/operations/campaign-docs.js";
import type { CampaignService } from "../services/campaign-service.js";
import { type CreateCampaignInput, createCampaignSchema } from "../services/campaigns/campaign-input.js";
import { type CampaignLinksInput, campaignLinksSchema } from "../services/campaigns/campaign-links-input.js";
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
      method: "GET",
      path: "/campaigns/:id/links",
      docs: listCampaignLinksDocs,
      params: idParams,
      input: { from: "query", schema: campaignLinksSchema },
      // Like the contact list: the body is the array, the next page's URL is in `Link`.
      handle: async ({ organizationId, params, input, publicUrl }) => {
        const query = input as Record<string, string | undefined>;
        const page = await campaigns.links(organizationId, params.id, query as CampaignLinksInput);
        const headers: Record<string, string> = {};
        if (page.nextCursor) {
          const next = new URLSearchParams();
          if (query.limit !== undefined) next.set("limit", query.limit);
          next.set("cursor", page.nextCursor);
          headers.link = `<${publicUrl}?${next}>; rel="next"`;
        }
        return jsonResponse(page.links, 200, headers);
      },
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
