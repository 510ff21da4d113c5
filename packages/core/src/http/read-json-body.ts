import { MailPulseError } from "../errors.js";
import { exceedsJsonDepth, maxJsonDepth } from "../util/json-depth.js";
import { readBodyText } from "./read-body.js";

const jsonContentType = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON request body of at most `maxBytes` bytes (413 past it, checked against
 * Content-Length first and while streaming). An empty body yields `undefined`, so the schema
 * reports what is missing. A non-empty body must be `application/json` (415), parse (400) and
 * nest objects and arrays at most `maxJsonDepth` (64) levels deep (400), checked before any
 * validation: 10,000 levels of `metadata` overflowed `JSON.stringify` into a 500.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim().length === 0) return undefined;
  const contentType = request.headers.get("content-type") ?? "";
  if (!jsonContentType.test(contentType)) {
    throw new MailPulseError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type must be application/json (got ${contentType ? `"${contentType}"` : "none"})`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new MailPulseError("INVALID_JSON", `Invalid JSON in request body: ${(error as Error).message}`);
  }
  if (exceedsJsonDepth(body)) {
    throw new MailPulseError(
      "BAD_REQUEST",
      `Request body nests objects and arrays more than ${maxJsonDepth} levels deep`,
    );
  }
  return body;
}
