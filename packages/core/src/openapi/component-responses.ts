import type { DocsObject } from "../http/operation-docs.js";
import { errorDocs } from "./answer-docs.js";

/**
 * Answers several operations share (`#/components/responses/...`). `Unauthorized`,
 * `PayloadTooLarge`, `UnsupportedMediaType` and `RateLimited` are added by the generator wherever
 * the route table implies them (an API key, a JSON body, any route); operations reference the
 * others themselves.
 */
export const componentResponses: Record<string, DocsObject> = {
  Unauthorized: errorDocs("The `x-api-key` header is missing, or the key is unknown or revoked.", {
    unauthorized: "Unauthorized",
  }),
  PayloadTooLarge: errorDocs(
    "The body is larger than the instance's limit: `maxSendBodyBytes` (default 20 MiB) for `POST /api/send` and `POST /api/emails`, `maxBodyBytes` (default 1 MiB) for the other routes.",
    { tooLarge: "Request body exceeds the limit of 1048576 bytes" },
  ),
  RateLimited: {
    ...errorDocs(
      "Past the rate limit, when the instance has one (`rateLimit` option; the standalone server's `MAILPULSE_RATE_LIMIT`): per API key, or per client IP on the tracking routes (`rateLimit.trackingPerIp`, off by default). Every authenticated answer carries `RateLimit-Policy` and `RateLimit` (IETF httpapi ratelimit headers) when a limit is set.",
      { rateLimited: "Rate limit exceeded: retry in 42 s" },
    ),
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
  },
  UnsupportedMediaType: errorDocs("A non-empty body whose `Content-Type` is not `application/json`.", {
    wrongType: 'Content-Type must be application/json (got "text/plain")',
  }),
  CampaignNotFound: errorDocs("No campaign with this id in the organization.", {
    notFound: "Campaign not found",
  }),
};
