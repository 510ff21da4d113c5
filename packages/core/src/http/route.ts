import type { z } from "zod";

/** Methods a route may declare. HEAD is served by the GET route of the same path. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a route handler receives, validated. */
export interface RouteContext<TParams, TQuery, TBody> {
  params: TParams;
  query: TQuery;
  body: TBody;
  /** The organization of the API key; empty for routes without authentication. */
  organizationId: string;
  /** The incoming request (HEAD requests reach GET handlers with `request.method === "HEAD"`). */
  request: Request;
  /** The client's IP address when the adapter knows it. */
  clientIp: string | undefined;
}

/** A route declared as data: method, path, schemas, handler (DESIGN: routes are declared once). */
export interface Route<TParams = unknown, TQuery = unknown, TBody = unknown> {
  method: HttpMethod;
  /** Path under the API, with `:name` parameters, e.g. `/api/campaigns/:id`. */
  path: `/api${string}`;
  /** `apiKey` (default): requires `x-api-key`. `none`: public (tracking pixel and redirect). */
  auth?: "apiKey" | "none";
  params?: z.ZodType<TParams>;
  query?: z.ZodType<TQuery>;
  /** When set, the request must carry a JSON body matching it. */
  body?: z.ZodType<TBody>;
  /** Success status; default 200. */
  status?: number;
  /** Returns a JSON-serialisable value, or a `Response` for non-JSON answers. */
  handle(context: RouteContext<TParams, TQuery, TBody>): Promise<unknown>;
}

/** A route of any shape, as the router stores it. */
// biome-ignore lint/suspicious/noExplicitAny: the table holds routes of every parameter type.
export type AnyRoute = Route<any, any, any>;

/** Declares a route with its types inferred from the schemas. */
export function defineRoute<
  TParams = Record<string, never>,
  TQuery = Record<string, never>,
  TBody = undefined,
>(route: Route<TParams, TQuery, TBody>): Route<TParams, TQuery, TBody> {
  return route;
}
