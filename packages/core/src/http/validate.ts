import type { z } from "zod";
import { MailPulseError } from "../errors.js";
import { describeIssues, safeParseWithIssues } from "../services/validation/issues.js";

/** The parts of a request the route itself parses (the service input is parsed by its service). */
type Part = "query" | "path";

/**
 * Validates a part of the request a route declares itself (path parameters, an HTTP-only query),
 * turning schema issues into a 400 that names the field: `Invalid request path: "id": ...`.
 */
export function validate<T>(schema: z.ZodType<T>, input: unknown, part: Part): T {
  const outcome = safeParseWithIssues(schema, input);
  if (outcome.success) return outcome.data;
  throw new MailPulseError(
    "VALIDATION_FAILED",
    `Invalid request ${part}: ${describeIssues(outcome.issues)}`,
    {
      issues: outcome.issues,
    },
  );
}
