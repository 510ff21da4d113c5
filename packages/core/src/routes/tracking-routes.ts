import { type DirectResponse, defineDirectRoute } from "../http/direct-route.js";
import type { RateLimiter } from "../http/rate-limit/create-rate-limiter.js";
import { rateLimitHeaders } from "../http/rate-limit/rate-limit-headers.js";
import type { TrackingService } from "../services/tracking-service.js";
import { idParams } from "./id-params.js";
import { trackingPaths } from "./tracking-paths.js";

/** The 1x1 transparent GIF every open request gets, known or not. */
const transparentGif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

// Answers are built once: the pixel is the hottest route, and its answer never varies.
const pixelAnswer: DirectResponse = {
  status: 200,
  headers: {
    "cache-control": "no-store, no-cache, must-revalidate, private",
    pragma: "no-cache",
    expires: "0",
    "content-type": "image/gif",
    "content-length": String(transparentGif.length),
  },
  body: transparentGif,
};

const notFoundPage = `<!doctype html><html><head><meta charset="utf-8"><title>Link not found</title></head>
<body><p>This link is not valid or has expired.</p></body></html>`;

const unknownLinkAnswer: DirectResponse = {
  status: 404,
  headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  body: notFoundPage,
};

/**
 * Public tracking endpoints (no API key: mail clients call them). Direct routes: the Node bridge
 * serves them without building a `Request` or `Response` (see `defineDirectRoute`).
 */
export function trackingRoutes(tracking: TrackingService, ipLimiter?: RateLimiter) {
  /** The 429 for a client IP past its quota, or `undefined` to go on. */
  async function overIpQuota(clientIp: string | undefined): Promise<DirectResponse | undefined> {
    if (!ipLimiter || clientIp === undefined) return undefined;
    const outcome = await ipLimiter.consume(clientIp);
    if (outcome.allowed) return undefined;
    return {
      status: 429,
      headers: {
        "content-type": "application/json; charset=utf-8",
        ...rateLimitHeaders(ipLimiter.quota, outcome),
      },
      body: JSON.stringify({ error: `Rate limit exceeded: retry in ${outcome.resetSeconds} s` }),
    };
  }

  return [
    defineDirectRoute({
      path: trackingPaths.open,
      docs: {
        tags: ["Tracking"],
        operationId: "trackOpen",
        summary: "Open-tracking pixel",
        description:
          "The 1x1 transparent GIF injected into tracked emails. Records an open of the email with this tracking id (with the client's user agent and, by default, a truncated IP address) and emits `EMAIL_OPENED`; unknown ids record nothing. The answer is the same GIF either way, never cached. HEAD answers the same headers and records nothing. No API key.",
        parameters: {
          id: {
            description: "The email's tracking id (`emailTrackingId`).",
          },
        },
        responses: {
          "200": {
            description:
              "The GIF (42 bytes), whether or not the id is known, and for ids no email can have (empty, over 200 characters, malformed percent-encoding, control characters): a mail client shows a broken image for anything else.",
            headers: {
              "Cache-Control": {
                description: "`no-store, no-cache, must-revalidate, private`",
                required: true,
                schema: {
                  type: "string",
                },
              },
              Pragma: {
                description: "`no-cache`",
                required: true,
                schema: {
                  type: "string",
                },
              },
              Expires: {
                description: "`0`",
                required: true,
                schema: {
                  type: "string",
                },
              },
            },
            content: {
              "image/gif": {},
            },
          },
        },
      },
      params: idParams,
      // Any id at all, even one no tracking id could be (empty, too long, `%FF`), gets the GIF:
      // a mail client shows a broken image for anything else.
      invalidParamsAnswer: pixelAnswer,
      direct: async ({ params, method, header, clientIp }) => {
        const refused = await overIpQuota(clientIp);
        if (refused) return refused;
        if (method !== "HEAD") {
          await tracking.recordOpen(params.id, {
            ip: clientIp,
            userAgent: header("user-agent"),
          });
        }
        return pixelAnswer;
      },
    }),
    defineDirectRoute({
      path: trackingPaths.click,
      docs: {
        tags: ["Tracking"],
        operationId: "trackClick",
        summary: "Click-tracking redirect",
        description:
          "The tracking URL links are rewritten to. Redirects to the link's stored URL (never one taken from the request), recording the click and emitting `EMAIL_CLICKED`. HEAD answers the same redirect and records nothing. No API key.",
        parameters: {
          id: {
            description: "The link's tracking id (`links[].trackingId`).",
          },
        },
        responses: {
          "302": {
            description: "Redirect to the original URL.",
            headers: {
              Location: {
                description: "The link's original URL.",
                required: true,
                schema: {
                  type: "string",
                  format: "uri",
                },
              },
              "Cache-Control": {
                description: "`no-store`",
                required: true,
                schema: {
                  type: "string",
                },
              },
              "Referrer-Policy": {
                description: "`no-referrer`",
                required: true,
                schema: {
                  type: "string",
                },
              },
            },
          },
          "404": {
            description:
              "Unknown link, or an id no link can have (empty, over 200 characters, malformed percent-encoding, control characters): a small HTML page for the person who clicked (not JSON). No click is recorded.",
            headers: {
              "Cache-Control": {
                description: "`no-store`",
                required: true,
                schema: {
                  type: "string",
                },
              },
            },
            content: {
              "text/html": {
                schema: {
                  type: "string",
                },
                example:
                  '<!doctype html><html><head><meta charset="utf-8"><title>Link not found</title></head>\n<body><p>This link is not valid or has expired.</p></body></html>',
              },
            },
          },
        },
      },
      params: idParams,
      // A person clicked: an HTML page reads better than a JSON error.
      invalidParamsAnswer: unknownLinkAnswer,
      direct: async ({ params, method, header, clientIp }) => {
        const refused = await overIpQuota(clientIp);
        if (refused) return refused;
        const signals = {
          ip: clientIp,
          userAgent: header("user-agent"),
        };
        const url = await tracking.resolveClick(params.id, signals, method !== "HEAD");
        if (!url) return unknownLinkAnswer;
        return {
          status: 302,
          headers: { location: url, "cache-control": "no-store", "referrer-policy": "no-referrer" },
          body: null,
        };
      },
    }),
  ];
}
