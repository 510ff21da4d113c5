import type { z } from "zod";
import type { OperationDocs } from "./operation-docs.js";

/** Methods a route may declare. HEAD is served by the GET route of the same path. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * The input a route hands to its service unparsed: the JSON body, or the query string as a record
 * of strings. The service parses it, once, with `schema` (the service's own); the handler only
 * reads it, and words a VALIDATION_FAILED the route throws in terms of that part of the request
 * (`Invalid request body: "name" is required`). The schema also documents the part.
 */
export interface RouteInput {
  from: "body" | "query";
  schema: z.ZodType;
}

/** What a route handler receives. */
export interface RouteContext<TParams, TQuery> {
  /** Path parameters, parsed with the route's `params` schema. */
  params: TParams;
  /** The query, parsed with the route's `query` schema (empty without one). */
  query: TQuery;
  /**
   * The route's {@link RouteInput} as read from the request, not yet validated: pass it to the
   * service, which parses it. `undefined` without an `input` (or for an empty body).
   */
  input: unknown;
  /** The organization of the API key; empty for routes without authentication. */
  organizationId: string;
  /** The incoming request (HEAD requests reach GET handlers with `request.method === "HEAD"`). */
  request: Request;
  /** The client's IP address when the adapter knows it. */
  clientIp: string | undefined;
  /**
   * This request's URL as clients reach it, without the query: the instance's public `baseUrl`
   * plus the path. Routes link to themselves with it (the contact list's next page) instead of
   * spelling their own path again.
   */
  publicUrl: string;
}

/** A route declared as data: method, path, schemas, handler (DESIGN: routes are declared once). */
export interface Route<TParams = unknown, TQuery = unknown> {
  method: HttpMethod;
  /**
   * The path relative to the base path (`MailPulseOptions.basePath`, default `/api`), with
   * `:name` parameters: `/campaigns/:id` is served at `/api/campaigns/:id`.
   */
  path: `/${string}`;
  /** `apiKey` (default): requires `x-api-key`. `none`: public (tracking pixel and redirect). */
  auth?: "apiKey" | "none";
  /** Path parameters: the route's own contract (segment lengths), parsed by the handler. */
  params?: z.ZodType<TParams>;
  /** A query only the route reads (not a service input), parsed by the handler. */
  query?: z.ZodType<TQuery>;
  /** The service input the route passes on; see {@link RouteInput}. A `body` input must be sent. */
  input?: RouteInput;
  /** This route's body limit in bytes, when it differs from the handler's `maxBodyBytes`. */
  maxBodyBytes?: number;
  /** Success status; default 200. */
  status?: number;
  /** What the OpenAPI document says beyond what the route declares (`createOpenApiDocument`). */
  docs?: OperationDocs;
  /** Returns a JSON-serialisable value, or a `Response` for non-JSON answers. */
  handle(context: RouteContext<TParams, TQuery>): Promise<unknown>;
}

/**
 * A route of the table as the instance exposes it (`mailpulse.routes`): its declaration (method,
 * path relative to the base path, authentication, schemas, status, documentation), without the
 * handler.
 */
export type MailPulseRoute = Readonly<Omit<AnyRoute, "handle">>;

/** A route of any shape, as the router stores it. */
// biome-ignore lint/suspicious/noExplicitAny: the table holds routes of every parameter type.
export type AnyRoute = Route<any, any>;

/** Declares a route with its types inferred from the schemas. */
export function defineRoute<TParams = Record<string, never>, TQuery = Record<string, never>>(
  route: Route<TParams, TQuery>,
): Route<TParams, TQuery> {
  return route;
}
