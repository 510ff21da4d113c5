import { z } from "zod";
import { defaultBasePath, normalizeBasePath } from "../http/mount-routes.js";
import type { DocsObject } from "../http/operation-docs.js";
import type { MailPulseRoute } from "../http/route.js";
import type { JsonObject, JsonValue } from "../util/json.js";
import { componentResponses } from "./component-responses.js";
import { documentInfo } from "./document-info.js";
import { convertSchemas } from "./zod-json-schema.js";

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiDocumentOptions {
  /** The base path the routes are mounted under; default `/api`, like `MailPulseOptions.basePath`. */
  basePath?: string;
}

/** `/campaigns/:id` -> `/campaigns/{id}`. */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

/** The fields of an object schema, in declaration order, with whether each is required. */
function objectFields(
  schema: z.ZodType | undefined,
  what: string,
): Array<{ name: string; required: boolean; field: z.ZodType }> {
  if (schema === undefined) return [];
  if (!(schema instanceof z.ZodObject)) throw new Error(`${what} must be a z.object to be documented`);
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
    name,
    required: !field.safeParse(undefined).success,
    field,
  }));
}

const ref = (to: string): DocsObject => ({ $ref: `#/components/responses/${to}` });

/** The operation object of one route: its docs, completed from the route's declaration. */
function operationOf(route: MailPulseRoute, where: string): DocsObject {
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
  const parameters: DocsObject[] = declared.map(({ name, in: location, required, field }) => {
    const parameterDocs = docs.parameters?.[name];
    if (!parameterDocs && field.description === undefined) {
      throw new Error(`${where}: the ${location} parameter "${name}" has no docs`);
    }
    documented.delete(name);
    return { name, in: location, required, schema: field, ...parameterDocs };
  });
  if (documented.size > 0)
    throw new Error(`${where}: docs for undeclared parameters ${[...documented].join(", ")}`);
  for (const [name, headerDocs] of Object.entries(docs.headers ?? {})) {
    parameters.push({ name, in: "header", required: false, ...headerDocs });
  }

  const body = route.input?.from === "body" ? route.input.schema : undefined;
  if (docs.requestBody && !body) {
    throw new Error(`${where}: a request body is documented, but the route reads none`);
  }
  if (docs.ownRequestBody && body) {
    throw new Error(`${where}: ownRequestBody is for routes without a body input; use requestBody`);
  }
  // What the table implies: an API key can be refused, a body can be too large or not JSON, and
  // keyed and tracking (direct) routes can be rate limited, per key or per IP, when a limit is set.
  const rateLimited = route.auth !== "none" || "direct" in route;
  const implied: Record<string, DocsObject> = {
    ...(route.auth === "none" ? {} : { 401: ref("Unauthorized") }),
    ...(rateLimited ? { 429: ref("RateLimited") } : {}),
    ...(body ? { 413: ref("PayloadTooLarge"), 415: ref("UnsupportedMediaType") } : {}),
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
    ...(body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: body, ...docs.requestBody } },
          },
        }
      : docs.ownRequestBody
        ? { requestBody: docs.ownRequestBody }
        : {}),
    responses: Object.fromEntries(statuses.map((status) => [status, responses[status]!])),
  };
}

/** Whether a JSON value is an object (not an array, not null). */
function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A parameter's description belongs beside its schema, where OpenAPI tools show it: one written
 * with `.describe()` on the zod field is moved there (docs written on the route win). Rebuilt in
 * the usual reading order: name, place, description, schema, examples.
 */
function liftDescription(parameter: JsonValue): JsonValue {
  if (!isObject(parameter) || !isObject(parameter.schema)) return parameter;
  const { description, schema: _schema, ...rest } = parameter;
  const { description: fromSchema, ...bare } = parameter.schema;
  const text = description ?? fromSchema;
  const head: JsonObject = {};
  for (const key of ["name", "in", "required"]) if (rest[key] !== undefined) head[key] = rest[key];
  return { ...head, ...(text === undefined ? {} : { description: text }), schema: bare, ...rest };
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
  const operations: Record<string, Record<string, DocsObject>> = {};
  for (const route of routes) {
    const path = `${basePath}${openApiPath(route.path)}`;
    const where = `${route.method} ${path}`;
    operations[path] = { ...operations[path], [route.method.toLowerCase()]: operationOf(route, where) };
  }
  const { value, components } = convertSchemas<{
    paths: Record<string, Record<string, JsonObject>>;
    responses: Record<string, JsonObject>;
  }>({ paths: operations, responses: componentResponses });
  for (const operation of Object.values(value.paths).flatMap((item) => Object.values(item))) {
    if (Array.isArray(operation.parameters)) operation.parameters = operation.parameters.map(liftDescription);
  }
  const { securitySchemes, ...document } = documentInfo;
  return {
    ...document,
    paths: value.paths,
    components: { securitySchemes, responses: value.responses, schemas: components },
  };
}
