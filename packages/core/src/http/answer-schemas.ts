import { z } from "zod";

/** Every error body: `{"error": "<message a person can act on>"}` (DESIGN: Errors). */
export const errorBodySchema = z
  .strictObject({ error: z.string().describe("A message meant for the API client.") })
  .meta({ id: "Error", description: "Every error body." });

/** The answer of an operation that has nothing else to say. */
export const successSchema = z.strictObject({ success: z.literal(true) }).meta({ id: "Success" });
