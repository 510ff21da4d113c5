import type { JsonObject } from "../util/json.js";

/**
 * Answers several operations share (`#/components/responses/...`). `Unauthorized`,
 * `PayloadTooLarge`, `UnsupportedMediaType` and `RateLimited` are added by the generator wherever
 * the route table implies them (an API key, a JSON body, any route); operations reference the
 * others themselves.
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
  RateLimited: {
    description:
      "Past the rate limit, when the instance has one (`rateLimit` option; the standalone server's `MAILPULSE_RATE_LIMIT`): per API key, or per client IP on the tracking routes (`rateLimit.trackingPerIp`, off by default). Every authenticated answer carries `RateLimit-Policy` and `RateLimit` (IETF httpapi ratelimit headers) when a limit is set.",
    headers: {
      "Retry-After": {
        description: "Seconds until the window resets.",
        required: true,
        schema: { type: "integer", minimum: 1 },
      },
      "RateLimit-Policy": {
        description: 'The quota and its window in seconds: `"default";q=600;w=60`.',
        required: true,
        schema: { type: "string" },
      },
      RateLimit: {
        description: 'Requests left and seconds until the window resets: `"default";r=0;t=42`.',
        required: true,
        schema: { type: "string" },
      },
    },
    content: {
      "application/json": {
        schema: {
          $ref: "#/components/schemas/Error",
        },
        examples: {
          rateLimited: {
            value: {
              error: "Rate limit exceeded: retry in 42 s",
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
