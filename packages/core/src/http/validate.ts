import type { z } from "zod";
import { MailPulseError } from "../errors.js";

type Part = "body" | "query" | "path";

function describePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === "number") return `${text}[${key}]`;
    return text ? `${text}.${String(key)}` : String(key);
  }, "");
}

/**
 * Validates one part of a request, turning schema issues into a 400 that names the field:
 * `Invalid request body: "name" is required`.
 */
export function validate<T>(schema: z.ZodType<T>, input: unknown, part: Part): T {
  const result = schema.safeParse(input, {
    error: (issue) =>
      issue.input === undefined && issue.code === "invalid_type" ? "is required" : undefined,
  });
  if (result.success) return result.data;
  if (part === "body" && input === undefined) {
    throw new MailPulseError("VALIDATION_FAILED", "Request body is required: send a JSON object");
  }
  const details = result.error.issues.slice(0, 5).map((issue) => {
    const field = describePath(issue.path);
    if (!field) return issue.message;
    return issue.message === "is required" ? `"${field}" is required` : `"${field}": ${issue.message}`;
  });
  throw new MailPulseError("VALIDATION_FAILED", `Invalid request ${part}: ${details.join("; ")}`);
}
