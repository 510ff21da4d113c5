import { MailPulseError } from "../errors.js";
import { exceedsJsonDepth, maxJsonDepth } from "../util/json-depth.js";

const jsonContentType = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

async function readLimitedText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      // The client went away or the server's request timeout cut it off: its doing, not a bug, so
      // no stack is logged (and there is nobody left to read the answer).
      throw new MailPulseError("BAD_REQUEST", "The request body ended before its declared length", {
        cause: error,
      });
    }
    const { done, value } = chunk;
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(maxBytes: number): MailPulseError {
  return new MailPulseError("PAYLOAD_TOO_LARGE", `Request body exceeds the limit of ${maxBytes} bytes`);
}

/**
 * Reads a JSON request body of at most `maxBytes` bytes (413 past it, checked against
 * Content-Length first and while streaming). An empty body yields `undefined`, so the schema
 * reports what is missing. A non-empty body must be `application/json` (415), parse (400) and
 * nest objects and arrays at most `maxJsonDepth` (64) levels deep (400), checked before any
 * validation: 10,000 levels of `metadata` overflowed `JSON.stringify` into a 500.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const text = await readLimitedText(request, maxBytes);
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
