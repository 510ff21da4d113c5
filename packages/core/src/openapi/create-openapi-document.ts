import { z } from "zod";
import { defaultBasePath, normalizeBasePath } from "../http/mount-routes.js";
import type { MailPulseRoute } from "../http/route.js";
import type { JsonObject } from "../util/json.js";
import { componentResponses } from "./component-responses.js";
import { componentSchemas } from "./component-schemas.js";
import { documentInfo } from "./document-info.js";

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiDocumentOptions {
  /** The base path the routes are mounted under; default `/api`, like `MailPulseOptions.basePath`. */
  basePath?: string;
}

/** `/campaigns/:id` -> `/campaigns/{id}`. */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

/** The keys of an object schema, in declaration order, with whether each is required. */
function objectFields(
  schema: z.ZodType | undefined,
  what: string,
): Array<{ name: string; required: boolean }> {
  if (schema === undefined) return [];
  if (!(schema instanceof z.ZodObject)) throw new Error(`${what} must be a z.object to be documented`);
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
    name,
    required: !field.safeParse(undefined).success,
  }));
}

const ref = (to: string): JsonObject => ({ $ref: `#/components/responses/${to}` });

/** The operation object of one route: its docs, completed from the route's declaration. */
function operationOf(route: MailPulseRoute, where: string): JsonObject {
  const docs = route.docs;
  if (!docs) throw new Error(`${where} has no docs: every route of the table is documented`);

  const queryFields = objectFields(
    route.input?.from === "query" ? route.input.schema : route.query,
    `${where} query`,
  );
  const declared = [
    ...objectFields(route.params, `${where} params`).map((field) => ({
      ...field,
      in: "path",
      required: true,
    })),
    ...queryFields.map((field) => ({ ...field, in: "query" })),
  ];
  const documented = new Set(Object.keys(docs.parameters ?? {}));
  const parameters = declared.map(({ name, in: location, required }) => {
    const parameterDocs = docs.parameters?.[name];
    if (!parameterDocs) throw new Error(`${where}: the ${location} parameter "${name}" has no docs`);
    documented.delete(name);
    return { name, in: location, required, ...parameterDocs };
  });
  if (documented.size > 0)
    throw new Error(`${where}: docs for undeclared parameters ${[...documented].join(", ")}`);
  for (const [name, headerDocs] of Object.entries(docs.headers ?? {})) {
    parameters.push({ name, in: "header", required: false, ...headerDocs });
  }

  const readsBody = route.input?.from === "body";
  if (readsBody !== (docs.requestBody !== undefined)) {
    throw new Error(`${where}: a request body is documented exactly when the route reads one`);
  }
  // What the table implies: an API key can be refused, a body can be too large or not JSON, and
  // keyed and tracking (direct) routes can be rate limited, per key or per IP, when a limit is set.
  const rateLimited = route.auth !== "none" || "direct" in route;
  const implied: Record<string, JsonObject> = {
    ...(route.auth === "none" ? {} : { 401: ref("Unauthorized") }),
    ...(rateLimited ? { 429: ref("RateLimited") } : {}),
    ...(readsBody ? { 413: ref("PayloadTooLarge"), 415: ref("UnsupportedMediaType") } : {}),
  };
  const responses = { ...docs.responses, ...implied };
  const statuses = Object.keys(responses).sort();
  const successes = statuses.filter((status) => /^[23]/.test(status));
  // Direct routes (the tracking pixel and redirect) choose their status at run time.
  if (!("direct" in route) && successes.join() !== String(route.status ?? 200)) {
    throw new Error(
      `${where} answers ${route.status ?? 200} on success; its docs list ${successes.join(", ")}`,
    );
  }

  return {
    tags: docs.tags,
    operationId: docs.operationId,
    summary: docs.summary,
    ...(docs.description === undefined ? {} : { description: docs.description }),
    ...(route.auth === "none" ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(docs.requestBody
      ? { requestBody: { required: true, content: { "application/json": docs.requestBody } } }
      : {}),
    responses: Object.fromEntries(statuses.map((status) => [status, responses[status]!])),
  };
}

/**
 * The OpenAPI 3.1 document of a route table (`mailpulse.routes`): every route under `basePath`,
 * with the documentation each declares. What the table says (methods, paths, security,
 * parameters, bodies, the answers they imply) is taken from it, so the document cannot drift from
 * the routes; `npm run openapi` writes it to docs/openapi.json, and a test checks that file is
 * what this function returns. Throws when a route is undocumented or its docs contradict it.
 */
export function createOpenApiDocument(
  routes: readonly MailPulseRoute[],
  options: OpenApiDocumentOptions = {},
): JsonObject {
  const basePath = normalizeBasePath(options.basePath ?? defaultBasePath);
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of routes) {
    const path = `${basePath}${openApiPath(route.path)}`;
    const where = `${route.method} ${path}`;
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route, where) };
  }
  const { securitySchemes, ...document } = documentInfo;
  return {
    ...document,
    paths,
    components: { securitySchemes, responses: componentResponses, schemas: componentSchemas },
  };
}
