import type { z } from "zod";
import { MailPulseError } from "../../errors.js";
import { describeIssues, safeParseWithIssues } from "./issues.js";

/**
 * Parses the input of a service method with its schema: the parsed value, or VALIDATION_FAILED
 * naming the method and the fields, with every problem in `issues`:
 * `Invalid input of campaigns.create: "name" is required`.
 *
 * Services call it once, on entry; the HTTP routes hand the request's JSON over unparsed, and the
 * handler rewords the error for the part of the request the input came from.
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  operation: string,
): z.output<Schema> {
  const outcome = safeParseWithIssues(schema, input);
  if (outcome.success) return outcome.data;
  const message =
    input === undefined
      ? `Missing input of ${operation}: pass an object`
      : `Invalid input of ${operation}: ${describeIssues(outcome.issues)}`;
  throw new MailPulseError("VALIDATION_FAILED", message, { issues: outcome.issues });
}
