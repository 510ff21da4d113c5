import type { JsonObject } from "../../util/json.js";

/**
 * An error answer of an operation: `{"error": "..."}` under the shared `Error` schema, with one
 * named example per message. Every operation documents its 4xx answers this way, so the shape is
 * written once.
 */
export function errorDocs(description: string, examples: Record<string, string>): JsonObject {
  return {
    description,
    content: {
      "application/json": {
        schema: { $ref: "#/components/schemas/Error" },
        examples: Object.fromEntries(
          Object.entries(examples).map(([name, error]) => [name, { value: { error } }]),
        ),
      },
    },
  };
}
