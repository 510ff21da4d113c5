import type { z } from "zod";
import { errorBodySchema } from "../http/answer-schemas.js";
import type { DocsObject } from "../http/operation-docs.js";

/** A JSON answer of an operation: its description and the zod schema of its body. */
export function jsonAnswer(description: string, schema: z.ZodType): DocsObject {
  return { description, content: { "application/json": { schema } } };
}

/**
 * An error answer of an operation: `{"error": "..."}` under the shared `Error` schema, with one
 * named example per message. Every operation documents its 4xx answers this way, so the shape is
 * written once.
 */
export function errorDocs(description: string, examples: Record<string, string>): DocsObject {
  return {
    description,
    content: {
      "application/json": {
        schema: errorBodySchema,
        examples: Object.fromEntries(
          Object.entries(examples).map(([name, error]) => [name, { value: { error } }]),
        ),
      },
    },
  };
}
