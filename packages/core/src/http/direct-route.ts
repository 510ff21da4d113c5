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
}): DirectRoute<TParams> {
  return {
    method: "GET",
    path: route.path,
    auth: "none",
    params: route.params,
    docs: route.docs,
    direct: route.direct,
    async handle({ params, request, clientIp }) {
      const answer = await route.direct({
        params,
        method: request.method === "HEAD" ? "HEAD" : "GET",
        header: (name) => request.headers.get(name) ?? undefined,
        clientIp,
      });
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    },
  };
}

/** Whether a route of the table can be served by {@link defineDirectRoute}'s direct path. */
export function isDirectRoute(route: Route<unknown, unknown>): route is DirectRoute {
  return typeof (route as Partial<DirectRoute>).direct === "function";
}
