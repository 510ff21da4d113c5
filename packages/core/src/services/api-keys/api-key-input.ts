import { z } from "zod";

/** What `apiKeys.create` takes; a blank name is no name. */
export const createApiKeySchema = z.object({
  name: z
    .string()
    .trim()
    .max(200, "must be at most 200 characters")
    .transform((name) => name || undefined)
    .optional()
    .describe("A label to tell keys apart (`ci`, `production`); trimmed, at most 200 characters."),
});

/** What `apiKeys.create` takes: {@link createApiKeySchema}'s input. */
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;
