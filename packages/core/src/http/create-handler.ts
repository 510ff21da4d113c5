import { MailPulseError } from "../errors.js";
import type { Logger } from "../logger.js";
import { describeUnexpected } from "./describe-unexpected.js";
import { directResponseToResponse } from "./direct-route.js";
import { errorResponse, jsonResponse } from "./json-response.js";
import { parsePathParams } from "./path-params.js";
import type { AnyRoute } from "./route.js";
import { inRequestTerms, queryRecord, readRouteInput } from "./route-input.js";
import { createRouter } from "./router.js";
import { validate } from "./validate.js";

/** What the adapter knows about the connection and a `Request` cannot carry. */
export interface MailPulseRequestInfo {
  /** The client's IP address (the socket's, or the proxy's X-Forwarded-For when trusted). */
  clientIp?: string;
}

/** The core's whole HTTP surface. Never throws: every failure becomes a JSON response. */
export type MailPulseHandler = (request: Request, info?: MailPulseRequestInfo) => Promise<Response>;

/** Options of {@link createHandler}. */
export interface HandlerOptions {
  /** The route table mounted under the base path (`mountRoutes`): paths as the router matches them. */
  routes: readonly AnyRoute[];
  /** The instance's public address (`MailPulseOptions.baseUrl`), for `RouteContext.publicUrl`. */
  baseUrl: string;
  /** Maps a plaintext API key to its organization id, or `undefined` when invalid or revoked. */
  authenticate: (apiKey: string) => Promise<string | undefined>;
  maxBodyBytes: number;
  logger: Logger;
}

function withoutBodyForHead(request: Request, response: Response): Response {
  if (request.method !== "HEAD") return response;
  return new Response(null, { status: response.status, headers: response.headers });
}

/**
 * Builds the request pipeline: route match -> auth (`x-api-key`) -> path and query validation ->
 * handler (whose service validates the route's input) -> JSON. Client mistakes are 4xx with
 * `{"error"}`; unknown errors are logged and 500.
 */
export function createHandler(options: HandlerOptions): MailPulseHandler {
  const router = createRouter(options.routes);

  async function run(request: Request, info: MailPulseRequestInfo): Promise<Response> {
    const url = new URL(request.url);
    const { route, params } = router.match(request.method, url.pathname);

    let organizationId = "";
    if (route.auth !== "none") {
      const key = request.headers.get("x-api-key");
      const found = key ? await options.authenticate(key.trim()) : undefined;
      if (!found) throw new MailPulseError("UNAUTHORIZED", "Unauthorized");
      organizationId = found;
    }

    const parsed = parsePathParams(route, params);
    if ("answer" in parsed) return withoutBodyForHead(request, directResponseToResponse(parsed.answer));
    const context = {
      params: parsed.params,
      query: route.query ? validate(route.query, queryRecord(url), "query") : {},
      input: route.input && (await readRouteInput(route.input, request, url, options.maxBodyBytes)),
      organizationId,
      request,
      clientIp: info.clientIp,
      publicUrl: `${options.baseUrl}${url.pathname}`,
    };
    const result = await inRequestTerms(route.input, context.input, () => route.handle(context));
    const response = result instanceof Response ? result : jsonResponse(result, route.status ?? 200);
    return withoutBodyForHead(request, response);
  }

  return async (request, info = {}) => {
    try {
      return await run(request, info);
    } catch (error) {
      if (error instanceof MailPulseError) {
        if (error.status >= 500) options.logger.error(`MailPulse: ${error.message}`, error.cause ?? error);
        return errorResponse(error.status, error.message, error.headers);
      }
      options.logger.error(describeUnexpected(error, `${request.method} ${request.url}`), error);
      return errorResponse(500, "Internal server error");
    }
  };
}
