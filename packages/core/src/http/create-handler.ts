import { createHash } from "node:crypto";
import { MailPulseError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { ClientAddressResolver } from "../measurement/client-address.js";
import { describeUnexpected } from "./describe-unexpected.js";
import { directResponseToResponse } from "./direct-route.js";
import { errorResponse, jsonResponse } from "./json-response.js";
import { parsePathParams } from "./path-params.js";
import type { RateLimiter } from "./rate-limit/create-rate-limiter.js";
import { rateLimitHeaders } from "./rate-limit/rate-limit-headers.js";
import type { AnyRoute } from "./route.js";
import { inRequestTerms, parseRouteInput, queryRecord, readRouteInput } from "./route-input.js";
import { createRouter } from "./router.js";
import { validate } from "./validate.js";

/** What the adapter knows about the connection and a `Request` cannot carry. */
export interface MailPulseRequestInfo {
  /**
   * The address of the peer that sent the request: the socket's, or the client as the host
   * framework's own trust-proxy setting sees it (Express `req.ip`). MailPulse then believes
   * `X-Forwarded-For` only as far as `tracking.trustProxy` says; the address that comes out is
   * what the per-IP tracking limit counts and what opens and clicks store.
   */
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
  /**
   * Counts each authenticated request against its API key's quota (429 past it); its headers go
   * on every authenticated answer. Default: no rate limit.
   */
  rateLimiter?: RateLimiter;
  maxBodyBytes: number;
  logger: Logger;
  /**
   * The client's address from the peer's and `X-Forwarded-For` (`tracking.trustProxy`), decided
   * here once for every route. Default: the peer's address as given.
   */
  clientAddress?: ClientAddressResolver;
  /** Whether an unexpected error says the storage was never migrated (`Storage.isUnmigrated`). */
  isUnmigrated?: (error: unknown) => boolean;
}

/** The rate limit's key for an API key: a digest, so no plaintext key is ever stored. */
function rateLimitKeyOf(apiKey: string): string {
  return createHash("sha256").update(apiKey, "utf8").digest("base64url");
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    // A route's own Response with immutable headers: copy it.
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}

function withoutBodyForHead(request: Request, response: Response): Response {
  if (request.method !== "HEAD") return response;
  return new Response(null, { status: response.status, headers: response.headers });
}

/**
 * Builds the request pipeline: route match -> auth (`x-api-key`) -> rate limit (per key) -> path and query validation ->
 * input parsing (once) -> handler -> JSON. Client mistakes are 4xx with
 * `{"error"}`; unknown errors are logged and 500.
 */
export function createHandler(options: HandlerOptions): MailPulseHandler {
  const router = createRouter(options.routes);
  const clientAddress = options.clientAddress ?? ((peer: string | undefined) => peer);

  /** The rate-limit headers of the request being answered, once its key is known. */
  type Answered = { headers?: Record<string, string> };

  async function run(request: Request, info: MailPulseRequestInfo, answered: Answered): Promise<Response> {
    const url = new URL(request.url);
    const { route, params } = router.match(request.method, url.pathname);

    let organizationId = "";
    if (route.auth !== "none") {
      const key = request.headers.get("x-api-key")?.trim();
      const found = key ? await options.authenticate(key) : undefined;
      if (!found || !key) throw new MailPulseError("UNAUTHORIZED", "Unauthorized");
      organizationId = found;
      if (options.rateLimiter) {
        // Per key, not per organization: one noisy integration must not starve another key.
        const outcome = await options.rateLimiter.consume(rateLimitKeyOf(key));
        answered.headers = rateLimitHeaders(options.rateLimiter.quota, outcome);
        if (!outcome.allowed) {
          throw new MailPulseError("RATE_LIMITED", `Rate limit exceeded: retry in ${outcome.resetSeconds} s`);
        }
      }
    }

    const parsed = parsePathParams(route, params);
    if ("answer" in parsed) return withoutBodyForHead(request, directResponseToResponse(parsed.answer));
    const query = route.query ? validate(route.query, queryRecord(url), "query") : {};
    const rawInput =
      route.input &&
      (await readRouteInput(route.input, request, url, route.maxBodyBytes ?? options.maxBodyBytes));
    const context = {
      params: parsed.params,
      query,
      // Parsed here, once: the handler hands it to its service method's `parsed` entry.
      input: route.input && parseRouteInput(route.input, rawInput),
      rawInput,
      organizationId,
      request,
      clientIp: clientAddress(info.clientIp, request.headers.get("x-forwarded-for")),
      publicUrl: `${options.baseUrl}${url.pathname}`,
    };
    const result = await inRequestTerms(route.input, rawInput, () => route.handle(context));
    const response = result instanceof Response ? result : jsonResponse(result, route.status ?? 200);
    return withoutBodyForHead(request, response);
  }

  async function answer(request: Request, info: MailPulseRequestInfo, answered: Answered): Promise<Response> {
    try {
      return await run(request, info, answered);
    } catch (error) {
      if (error instanceof MailPulseError) {
        // A delivery failure was logged where its email and recipients are known (the email service).
        if (error.status >= 500 && error.code !== "DELIVERY_FAILED")
          options.logger.error(`MailPulse: ${error.message}`, error.cause ?? error);
        return errorResponse(error.status, error.message, error.headers);
      }
      options.logger.error(
        describeUnexpected(error, `${request.method} ${request.url}`, options.isUnmigrated),
        error,
      );
      return errorResponse(500, "Internal server error");
    }
  }

  return async (request, info = {}) => {
    const answered: Answered = {};
    const response = await answer(request, info, answered);
    return answered.headers ? withHeaders(response, answered.headers) : response;
  };
}
