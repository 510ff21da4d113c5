import type { OperationDocs } from "../../http/operation-docs.js";

/** `GET /openapi.json`. */
export const getOpenApiDocumentDocs: OperationDocs = {
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
};
