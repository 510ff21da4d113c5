import type { ValidationIssue } from "../errors.js";
import { MailPulseError } from "../errors.js";
import { describeIssues, safeParseWithIssues } from "../services/validation/issues.js";
import { readJsonBody } from "./read-json-body.js";
import type { RouteInput } from "./route.js";

/**
 * The query string as a record; for a repeated key the last value wins, like most frameworks'
 * parsers. BAD_REQUEST for a NUL anywhere in it: PostgreSQL refuses NUL in text (a 500 where
 * SQLite answered), and no search term or cursor needs one.
 */
export function queryRecord(url: URL): Record<string, string> {
  const record = Object.fromEntries(url.searchParams.entries());
  for (const [key, value] of Object.entries(record)) {
    if (key.includes("\u0000") || value.includes("\u0000")) {
      throw new MailPulseError(
        "BAD_REQUEST",
        `The query must not contain NUL (%00): see "${key.replaceAll("\u0000", "")}"`,
      );
    }
  }
  return record;
}

/**
 * Reads a route's service input from the request, before parsing it: the JSON body (limited to
 * `maxBodyBytes`; 413, 415 and malformed JSON fail here) or the query.
 */
export async function readRouteInput(
  input: RouteInput,
  request: Request,
  url: URL,
  maxBodyBytes: number,
): Promise<unknown> {
  return input.from === "body" ? readJsonBody(request, maxBodyBytes) : queryRecord(url);
}

/** A refusal of the route's input worded for the part of the request it came from. */
function requestMessage(input: RouteInput, value: unknown, issues: readonly ValidationIssue[]): string {
  return input.from === "body" && value === undefined
    ? "Request body is required: send a JSON object"
    : `Invalid request ${input.from}: ${describeIssues(issues)}`;
}

/**
 * Parses a route's input as read by {@link readRouteInput} with its schema, once per request:
 * VALIDATION_FAILED naming the part and the fields (`Invalid request body: "name" is required`,
 * or that the body is missing), with every problem in `issues`.
 */
export function parseRouteInput<T>(input: RouteInput<T>, value: unknown): T {
  const outcome = safeParseWithIssues(input.schema, value);
  if (outcome.success) return outcome.data;
  throw new MailPulseError("VALIDATION_FAILED", requestMessage(input, value, outcome.issues), {
    issues: outcome.issues,
  });
}

/**
 * Runs a route's handler, rewording a VALIDATION_FAILED its service throws for the input in terms
 * of the request: the service says `Invalid input of campaigns.create: "name" is required`, the
 * API client reads `Invalid request body: "name" is required` (or that the body is missing).
 */
export async function inRequestTerms<T>(
  input: RouteInput | undefined,
  value: unknown,
  handle: () => Promise<T>,
): Promise<T> {
  if (!input) return handle();
  try {
    return await handle();
  } catch (error) {
    if (
      !(error instanceof MailPulseError) ||
      error.code !== "VALIDATION_FAILED" ||
      error.issues.length === 0
    ) {
      throw error;
    }
    throw new MailPulseError("VALIDATION_FAILED", requestMessage(input, value, error.issues), {
      issues: error.issues,
      cause: error,
    });
  }
}
