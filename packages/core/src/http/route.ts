import type { z } from "zod";
import type { OperationDocs } from "./operation-docs.js";

/** Methods a route may declare. HEAD is served by the GET route of the same path. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * The input a route hands to its service: the JSON body, or the query string as a record of
 * strings, parsed once by the handler with `schema` (the service method's own,
 * `service.method.schema`), which words a refusal in terms of that part of the request
 * (`Invalid request body: "name" is required`). The route passes the parsed value on to the
 * method's `parsed` entry. The schema also documents the part (`createOpenApiDocument`).
 */
export interface RouteInput<TInput = unknown> {
  from: "body" | "query";
  schema: z.ZodType<TInput>;
}

/** What a route handler receives. */
export interface RouteContext<TParams, TQuery, TInput = undefined> {
  /** Path parameters, parsed with the route's `params` schema. */
  params: TParams;
  /** The query, parsed with the route's `query` schema (empty without one). */
  query: TQuery;
  /** The route's {@link RouteInput}, parsed with its schema; `undefined` without an `input`. */
  input: TInput;
  /**
   * The route's input as the request carried it, before parsing: the JSON body (`undefined` when
   * empty) or the query record. What an idempotency key's fingerprint is taken of.
   */
  rawInput: unknown;
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
export interface Route<TParams = unknown, TQuery = unknown, TInput = undefined> {
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
  input?: RouteInput<TInput>;
  /** This route's body limit in bytes, when it differs from the handler's `maxBodyBytes`. */
  maxBodyBytes?: number;
  /** Success status; default 200. */
  status?: number;
  /** What the OpenAPI document says beyond what the route declares (`createOpenApiDocument`). */
  docs?: OperationDocs;
  /** Returns a JSON-serialisable value, or a `Response` for non-JSON answers. */
  handle(context: RouteContext<TParams, TQuery, TInput>): Promise<unknown>;
}

/**
 * A route of the table as the instance exposes it (`mailpulse.routes`): its declaration (method,
 * path relative to the base path, authentication, schemas, status, documentation), without the
 * handler.
 */
export type MailPulseRoute = Readonly<Omit<AnyRoute, "handle">>;

/** A route of any shape, as the router stores it. */
// biome-ignore lint/suspicious/noExplicitAny: the table holds routes of every parameter type.
export type AnyRoute = Route<any, any, any>;

/**
 * Declares a route with its types inferred from the schemas: the handler's `params`, `query` and
 * `input` are the outputs of the route's `params`, `query` and `input.schema`, so it needs no cast.
 */
export function defineRoute<
  TParams = Record<string, never>,
  TQuery = Record<string, never>,
  TInput = undefined,
>(route: Route<TParams, TQuery, TInput>): Route<TParams, TQuery, TInput> {
  return route;
}
