import { MailPulseError } from "../errors.js";
import { type DirectResponse, isDirectRoute } from "./direct-route.js";
import type { AnyRoute } from "./route.js";
import { decodePathParams } from "./router.js";
import { validate } from "./validate.js";

/** The outcome of {@link parsePathParams}: the parameters, or the route's own answer to bad ones. */
export type ParsedPathParams = { params: unknown } | { answer: DirectResponse };

/**
 * Decodes a matched route's raw parameters and validates them with its `params` schema, for both
 * entry points (the fetch handler and the Node bridge's direct path), so every route refuses the
 * same paths the same way before any storage sees them: BAD_REQUEST for malformed
 * percent-encoding, NOT_FOUND for control characters, VALIDATION_FAILED for the schema. A direct
 * route with an `invalidParamsAnswer` (the pixel's GIF, the click's 404 page) gives that instead.
 */
export function parsePathParams(route: AnyRoute, raw: Record<string, string>): ParsedPathParams {
  try {
    const decoded = decodePathParams({ ...raw });
    return { params: route.params ? validate(route.params, decoded, "path") : decoded };
  } catch (error) {
    if (error instanceof MailPulseError && isDirectRoute(route) && route.invalidParamsAnswer) {
      return { answer: route.invalidParamsAnswer };
    }
    throw error;
  }
}
