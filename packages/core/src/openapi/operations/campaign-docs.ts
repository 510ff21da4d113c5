import type { OperationDocs } from "../../http/operation-docs.js";
import { errorDocs } from "./error-docs.js";

/** `GET /campaigns`. */
export const listCampaignsDocs: OperationDocs = {
  tags: ["Campaigns"],
  operationId: "listCampaigns",
  summary: "List campaigns",
  description: "The organization's campaigns that are not archived, newest first. Not paginated.",
  responses: {
    "200": {
      description: "The campaigns.",
      content: {
        "application/json": {
          schema: {
            $ref: "#/components/schemas/CampaignList",
          },
        },
      },
    },
  },
};

/** `POST /campaigns`. */
export const createCampaignDocs: OperationDocs = {
  tags: ["Campaigns"],
  operationId: "createCampaign",
  summary: "Create a campaign",
  description:
    "Creates a campaign. Names are unique within the organization, archived campaigns included. Sending with a new name in `campaignId` also creates the campaign.",
  requestBody: {
    schema: {
      $ref: "#/components/schemas/CreateCampaignRequest",
    },
    examples: {
      spring: {
        value: {
          name: "Spring sale",
        },
      },
    },
  },
  responses: {
    "201": {
      description: "Created.",
      content: {
        "application/json": {
          schema: {
            $ref: "#/components/schemas/Campaign",
          },
        },
      },
    },
    "400": errorDocs("The body is missing, is not JSON or fails validation.", {
      missing: "Request body is required: send a JSON object",
      invalidJson: 'Invalid JSON in request body: Unexpected token \'}\', "{"name": }" is not valid JSON',
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
};

/** `GET /campaigns/{id}`. */
export const getCampaignDocs: OperationDocs = {
  tags: ["Campaigns"],
  operationId: "getCampaign",
  summary: "Get a campaign with its statistics",
  description:
    "The campaign (archived ones too) with its all-time totals, its links and its most recent emails. Only emails that were sent (or registered) count; failed sends do not.",
  parameters: {
    id: {
      description: "The campaign id.",
      schema: {
        type: "string",
        minLength: 1,
      },
    },
  },
  responses: {
    "200": {
      description: "The campaign detail.",
      content: {
        "application/json": {
          schema: {
            $ref: "#/components/schemas/CampaignDetail",
          },
        },
      },
    },
    "400": errorDocs("The path is malformed.", { badEncoding: "Malformed percent-encoding in the URL path" }),
    "404": {
      $ref: "#/components/responses/CampaignNotFound",
    },
  },
};

/** `POST /campaigns/{id}/archive`. */
export const archiveCampaignDocs: OperationDocs = {
  tags: ["Campaigns"],
  operationId: "archiveCampaign",
  summary: "Archive a campaign",
  description:
    "Archives the campaign: it leaves the campaign list and accepts no new emails (sending or registering with it is `400`). Its statistics stay available. Takes no request body (one sent is ignored).",
  parameters: {
    id: {
      description: "The campaign id.",
      schema: {
        type: "string",
        minLength: 1,
      },
    },
  },
  responses: {
    "200": {
      description: "Archived.",
      content: {
        "application/json": {
          schema: {
            $ref: "#/components/schemas/Success",
          },
        },
      },
    },
    "400": errorDocs("The campaign is already archived; or the path is malformed.", {
      alreadyArchived: "Campaign is already archived",
      badEncoding: "Malformed percent-encoding in the URL path",
    }),
    "404": {
      $ref: "#/components/responses/CampaignNotFound",
    },
  },
};
