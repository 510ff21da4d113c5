import type { JsonObject } from "../util/json.js";

/**
 * Answers several operations share (`#/components/responses/...`). `Unauthorized`,
 * `PayloadTooLarge` and `UnsupportedMediaType` are added by the generator wherever the route
 * table implies them (an API key, a JSON body); operations reference the others themselves.
 */
export const componentResponses: Record<string, JsonObject> = {
  Unauthorized: {
    description: "The `x-api-key` header is missing, or the key is unknown or revoked.",
    content: {
      "application/json": {
        schema: {
          $ref: "#/components/schemas/Error",
        },
        examples: {
          unauthorized: {
            value: {
              error: "Unauthorized",
            },
          },
        },
      },
    },
  },
  PayloadTooLarge: {
    description:
      "The body is larger than the instance's limit: `maxSendBodyBytes` (default 20 MiB) for `POST /api/send` and `POST /api/emails`, `maxBodyBytes` (default 1 MiB) for the other routes.",
    content: {
      "application/json": {
        schema: {
          $ref: "#/components/schemas/Error",
        },
        examples: {
          tooLarge: {
            value: {
              error: "Request body exceeds the limit of 1048576 bytes",
            },
          },
        },
      },
    },
  },
  UnsupportedMediaType: {
    description: "A non-empty body whose `Content-Type` is not `application/json`.",
    content: {
      "application/json": {
        schema: {
          $ref: "#/components/schemas/Error",
        },
        examples: {
          wrongType: {
            value: {
              error: 'Content-Type must be application/json (got "text/plain")',
            },
          },
        },
      },
    },
  },
  CampaignNotFound: {
    description: "No campaign with this id in the organization.",
    content: {
      "application/json": {
        schema: {
          $ref: "#/components/schemas/Error",
        },
        examples: {
          notFound: {
            value: {
              error: "Campaign not found",
            },
          },
        },
      },
    },
  },
};
