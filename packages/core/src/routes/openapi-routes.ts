import { defineRoute, type MailPulseRoute } from "../http/route.js";
import { createOpenApiDocument } from "../openapi/create-openapi-document.js";
import { documentInfo } from "../openapi/document-info.js";
import type { JsonObject } from "../util/json.js";

/** The path of the served document, relative to the base path. */
const documentPath = "/openapi.json";

/**
 * `GET /api/openapi.json`: the OpenAPI document of this instance, without an API key (clients and
 * tools read it before they have one). `routes` returns the whole table, this route included; the
 * document is generated once, on the first request, with the server URL this request came in on.
 */
export function openApiRoutes(routes: () => readonly MailPulseRoute[], basePath: string) {
  let document: JsonObject | undefined;
  return [
    defineRoute({
      method: "GET",
      path: documentPath,
      auth: "none",
      docs: {
        tags: ["OpenAPI"],
        operationId: "getOpenApiDocument",
        summary: "This OpenAPI document",
        description:
          "The OpenAPI 3.1 document of this instance's API, as `npm run openapi` writes it to docs/openapi.json, with the server variable `baseUrl` defaulting to the address the request came in on. No API key.",
        responses: {
          "200": {
            description: "The document.",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["openapi", "info", "paths"],
                  properties: {
                    openapi: { type: "string" },
                    info: { type: "object" },
                    paths: { type: "object" },
                  },
                },
              },
            },
          },
        },
      },
      handle: async ({ publicUrl }) => {
        document ??= servedFrom(
          createOpenApiDocument(routes(), { basePath }),
          publicUrl.slice(0, -`${basePath}${documentPath}`.length),
        );
        return document;
      },
    }),
  ];
}

/** The generated document with its server variable defaulting to this instance's address. */
function servedFrom(document: JsonObject, baseUrl: string): JsonObject {
  return {
    ...document,
    // The generator writes documentInfo's servers as they are: typed here, without reading them back.
    servers: documentInfo.servers.map((server) => ({
      ...server,
      variables: { ...server.variables, baseUrl: { ...server.variables.baseUrl, default: baseUrl } },
    })),
  };
}
