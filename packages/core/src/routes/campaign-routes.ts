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
import { idParams } from "./id-params.js";
import { sentQuery } from "./sent-query.js";

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
      input: { from: "body", schema: campaigns.create.schema },
      status: 201,
      handle: ({ organizationId, input }) => campaigns.create.parsed(organizationId, input),
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
      input: { from: "query", schema: campaigns.links.schema },
      // Like the contact list: the body is the array, the next page's URL is in `Link`.
      handle: async ({ organizationId, params, input, rawInput, publicUrl }) => {
        const page = await campaigns.links.parsed(organizationId, params.id, input);
        const headers: Record<string, string> = {};
        if (page.nextCursor) {
          const next = new URLSearchParams();
          const limit = sentQuery(rawInput).limit;
          if (limit !== undefined) next.set("limit", limit);
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
