import { successSchema } from "../http/answer-schemas.js";
import { defineRoute } from "../http/route.js";
import { errorDocs, jsonAnswer } from "../openapi/answer-docs.js";
import type { CampaignService } from "../services/campaign-service.js";
import {
  campaignDetailSchema,
  campaignListSchema,
  campaignSchema,
  linkClicksSchema,
} from "../services/campaigns/campaign-answers.js";
import { idParams } from "./id-params.js";
import { linkedPageAnswer, linkedPageResponse } from "./linked-page.js";

/** `/api/campaigns` routes. */
export function campaignRoutes(campaigns: CampaignService) {
  return [
    defineRoute({
      method: "GET",
      path: "/campaigns",
      docs: {
        tags: ["Campaigns"],
        operationId: "listCampaigns",
        summary: "List campaigns",
        description: "The organization's campaigns that are not archived, newest first. Not paginated.",
        responses: {
          "200": jsonAnswer("The campaigns.", campaignListSchema),
        },
      },
      handle: async ({ organizationId }) => ({ campaigns: await campaigns.list(organizationId) }),
    }),
    defineRoute({
      method: "POST",
      path: "/campaigns",
      docs: {
        tags: ["Campaigns"],
        operationId: "createCampaign",
        summary: "Create a campaign",
        description:
          "Creates a campaign. Names are unique within the organization, archived campaigns included. Sending with a new name in `campaignId` also creates the campaign.",
        requestBody: {
          examples: {
            spring: {
              value: {
                name: "Spring sale",
              },
            },
          },
        },
        responses: {
          "201": jsonAnswer("Created.", campaignSchema),
          "400": errorDocs("The body is missing, is not JSON or fails validation.", {
            missing: "Request body is required: send a JSON object",
            invalidJson:
              'Invalid JSON in request body: Unexpected token \'}\', "{"name": }" is not valid JSON',
            missingName: 'Invalid request body: "name" is required',
            emptyName: 'Invalid request body: "name": must not be empty',
          }),
          "403": errorDocs("The plan's limit of active (not archived) campaigns is reached.", {
            planLimit: "Campaign limit reached: your plan allows 3 active campaigns; archive one or upgrade",
          }),
          "409": errorDocs(
            "A campaign with this name already exists in the organization (archived ones included).",
            { duplicate: 'A campaign named "Spring sale" already exists' },
          ),
        },
      },
      input: { from: "body", schema: campaigns.create.schema },
      status: 201,
      handle: ({ organizationId, input }) => campaigns.create.parsed(organizationId, input),
    }),
    defineRoute({
      method: "GET",
      path: "/campaigns/:id",
      docs: {
        tags: ["Campaigns"],
        operationId: "getCampaign",
        summary: "Get a campaign with its statistics",
        description:
          "The campaign (archived ones too) with its all-time totals, its links and its most recent emails. Only emails that were sent (or registered) count; failed sends do not.",
        parameters: {
          id: {
            description: "The campaign id.",
          },
        },
        responses: {
          "200": jsonAnswer("The campaign detail.", campaignDetailSchema),
          "400": errorDocs("The path is malformed.", {
            badEncoding: "Malformed percent-encoding in the URL path",
          }),
          "404": {
            $ref: "#/components/responses/CampaignNotFound",
          },
        },
      },
      params: idParams,
      handle: ({ organizationId, params }) => campaigns.get(organizationId, params.id),
    }),
    defineRoute({
      method: "GET",
      path: "/campaigns/:id/links",
      docs: {
        tags: ["Campaigns"],
        operationId: "listCampaignLinks",
        summary: "List a campaign's links",
        description:
          'Every tracked URL of the campaign\'s sent emails with its clicks, in URL order (stable while clicks arrive), one page at a time. The body is a JSON array; when there is a next page, the `Link` header carries its absolute URL (`<{baseUrl}/api/campaigns/{id}/links?limit=100&cursor=...>; rel="next"`, RFC 8288). The campaign detail lists only the most clicked.',
        parameters: {
          id: {
            description: "The campaign id.",
          },
          limit: {
            description: "Links per page.",
          },
          cursor: {
            description: "Opaque position of the next page, as issued in the `Link` header.",
          },
        },
        responses: {
          "200": linkedPageAnswer("A page of links.", linkClicksSchema),
          "400": errorDocs("A query parameter is invalid, or the path is malformed.", {
            badLimit: 'Invalid request query: "limit": must be at most 1000',
            badCursor:
              'Invalid request query: "cursor" is not a cursor MailPulse issued; use the one the previous page gave',
          }),
          "404": {
            $ref: "#/components/responses/CampaignNotFound",
          },
        },
      },
      params: idParams,
      input: { from: "query", schema: campaigns.links.schema },
      // Like the contact list: the body is the array, the next page's URL is in `Link`.
      handle: async ({ organizationId, params, input, rawInput, publicUrl }) => {
        const page = await campaigns.links.parsed(organizationId, params.id, input);
        return linkedPageResponse(page.links, {
          cursor: page.nextCursor,
          publicUrl,
          rawInput,
          keep: ["limit"],
        });
      },
    }),
    defineRoute({
      method: "PATCH",
      path: "/campaigns/:id",
      docs: {
        tags: ["Campaigns"],
        operationId: "renameCampaign",
        summary: "Rename a campaign",
        description:
          "Gives the campaign a new name; its id, emails and statistics stay. An archived campaign can be renamed too (it stays archived), which frees its old name for a new campaign. Names are unique within the organization, archived campaigns included, as on create; renaming a campaign to its own name changes nothing. Events and webhook deliveries built after the rename show the new name.",
        parameters: {
          id: {
            description: "The campaign id.",
          },
        },
        requestBody: {
          examples: {
            rename: {
              value: {
                name: "Spring sale 2026",
              },
            },
          },
        },
        responses: {
          "200": jsonAnswer("Renamed: the campaign as it is now.", campaignSchema),
          "400": errorDocs(
            "The body is missing, is not JSON or fails validation; or the path is malformed.",
            {
              missing: "Request body is required: send a JSON object",
              emptyName: 'Invalid request body: "name": must not be empty',
              unknownField: 'Invalid request body: unknown field "archived"',
              badEncoding: "Malformed percent-encoding in the URL path",
            },
          ),
          "404": {
            $ref: "#/components/responses/CampaignNotFound",
          },
          "409": errorDocs("Another campaign of the organization has this name (archived ones included).", {
            duplicate: 'A campaign named "Spring sale 2026" already exists',
          }),
        },
      },
      params: idParams,
      input: { from: "body", schema: campaigns.rename.schema },
      handle: ({ organizationId, params, input }) =>
        campaigns.rename.parsed(organizationId, params.id, input),
    }),
    defineRoute({
      method: "POST",
      path: "/campaigns/:id/archive",
      docs: {
        tags: ["Campaigns"],
        operationId: "archiveCampaign",
        summary: "Archive a campaign",
        description:
          "Archives the campaign: it leaves the campaign list and accepts no new emails (sending or registering with it is `400`). Its statistics stay available. Takes no request body (one sent is ignored).",
        parameters: {
          id: {
            description: "The campaign id.",
          },
        },
        responses: {
          "200": jsonAnswer("Archived.", successSchema),
          "400": errorDocs("The campaign is already archived; or the path is malformed.", {
            alreadyArchived: "Campaign is already archived",
            badEncoding: "Malformed percent-encoding in the URL path",
          }),
          "404": {
            $ref: "#/components/responses/CampaignNotFound",
          },
        },
      },
      params: idParams,
      handle: async ({ organizationId, params }) => {
        await campaigns.archive(organizationId, params.id);
        return { success: true };
      },
    }),
  ];
}
