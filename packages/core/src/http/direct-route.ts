import type { z } from "zod";
import type { OperationDocs } from "./operation-docs.js";
import type { Route } from "./route.js";

/**
 * A bodyless public request as the Node bridge can describe it without building a WHATWG
 * `Request`: its method, a header getter and the client address.
 */
export interface DirectRequest {
  method: "GET" | "HEAD";
  /** A request header by lower-case name, or `undefined`. */
  header(name: string): string | undefined;
  /**
   * From the bridge, the peer's address; in a route's context, the client's address after
   * `tracking.trustProxy` (the direct handler resolves it, as the fetch handler does).
   */
  clientIp: string | undefined;
}

/** An answer as plain data, written by the bridge with one `writeHead`/`end`. */
export interface DirectResponse {
  status: number;
  headers: Record<string, string>;
  /** `null` for no body. HEAD answers never carry one, whatever the route returns. */
  body: Uint8Array<ArrayBuffer> | string | null;
}

/** What a direct route's handler receives: the validated path parameters and the request. */
export type DirectContext<TParams> = DirectRequest & { params: TParams };

/** A route that can also be served without WHATWG `Request`/`Response` objects. */
export interface DirectRoute<TParams = unknown> extends Route<TParams, Record<string, never>> {
  direct(context: DirectContext<TParams>): Promise<DirectResponse>;
  /**
   * The answer to a path whose parameters do not decode or validate, instead of a JSON error:
   * mail clients and link scanners read these routes, not API clients. Default: the JSON error.
   */
  invalidParamsAnswer?: DirectResponse;
}

/** A {@link DirectResponse} as a WHATWG `Response`, for the fetch handler. */
export function directResponseToResponse(answer: DirectResponse): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/**
 * Declares a public, bodyless GET route (the tracking pixel and redirect) whose one handler
 * serves both entry points: the fetch handler wraps its answer in a `Response`, and the Node
 * bridge writes it straight to the socket. Measured on this project's machine (bench/RESULTS.md),
 * constructing a `Request` with an abort signal and a `Response` cost more than the whole of a
 * bare Fastify route; on the hottest routes that is the difference that matters.
 */
export function defineDirectRoute<TParams>(route: {
  path: Route["path"];
  params: z.ZodType<TParams>;
  docs?: OperationDocs;
  direct(context: DirectContext<TParams>): Promise<DirectResponse>;
  invalidParamsAnswer?: DirectResponse;
}): DirectRoute<TParams> {
  return {
    method: "GET",
    path: route.path,
    auth: "none",
    params: route.params,
    docs: route.docs,
    direct: route.direct,
    invalidParamsAnswer: route.invalidParamsAnswer,
    async handle({ params, request, clientIp }) {
      const answer = await route.direct({
        params,
        method: request.method === "HEAD" ? "HEAD" : "GET",
        header: (name) => request.headers.get(name) ?? undefined,
        clientIp,
      });
      return directResponseToResponse(answer);
    },
  };
}

/** Whether a route of the table can be served by {@link defineDirectRoute}'s direct path. */
export function isDirectRoute(route: Route<unknown, unknown>): route is DirectRoute {
  return typeof (route as Partial<DirectRoute>).direct === "function";
}
