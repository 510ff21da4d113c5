import { z } from "zod";
import { defineRoute } from "../http/route.js";
import type { TrackingService } from "../services/tracking-service.js";

/** The 1x1 transparent GIF every open request gets, known or not. */
const transparentGif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

const noStore = {
  "cache-control": "no-store, no-cache, must-revalidate, private",
  pragma: "no-cache",
  expires: "0",
};

const notFoundPage = `<!doctype html><html><head><meta charset="utf-8"><title>Link not found</title></head>
<body><p>This link is not valid or has expired.</p></body></html>`;

const idParams = z.object({ id: z.string().min(1).max(200) });

/** Public tracking endpoints (no API key: mail clients call them). */
export function trackingRoutes(tracking: TrackingService) {
  return [
    defineRoute({
      method: "GET",
      path: "/api/t/o/:id",
      auth: "none",
      params: idParams,
      handle: async ({ params, request, clientIp }) => {
        if (request.method !== "HEAD") {
          await tracking.recordOpen(params.id, {
            ip: clientIp,
            userAgent: request.headers.get("user-agent"),
          });
        }
        return new Response(transparentGif, {
          status: 200,
          headers: {
            ...noStore,
            "content-type": "image/gif",
            "content-length": String(transparentGif.length),
          },
        });
      },
    }),
    defineRoute({
      method: "GET",
      path: "/api/t/c/:id",
      auth: "none",
      params: idParams,
      handle: async ({ params, request, clientIp }) => {
        const signals = { ip: clientIp, userAgent: request.headers.get("user-agent") };
        const url = await tracking.resolveClick(params.id, signals, request.method !== "HEAD");
        if (!url) {
          return new Response(notFoundPage, {
            status: 404,
            headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
          });
        }
        return new Response(null, {
          status: 302,
          headers: { location: url, "cache-control": "no-store", "referrer-policy": "no-referrer" },
        });
      },
    }),
  ];
}
