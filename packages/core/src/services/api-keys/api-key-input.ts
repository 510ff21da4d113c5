import { z } from "zod";
import { schemaFor } from "../validation/schema-for.js";

/** What `apiKeys.create` takes. */
export interface CreateApiKeyInput {
  /** A label to tell keys apart (`ci`, `production`); trimmed, at most 200 characters. */
  name?: string;
}

/** Parses a {@link CreateApiKeyInput}; a blank name is no name. */
export const createApiKeySchema = schemaFor<CreateApiKeyInput>()(
  z.object({
    name: z
      .string()
      .trim()
      .max(200, "must be at most 200 characters")
      .transform((name) => name || undefined)
      .optional(),
  }),
);
