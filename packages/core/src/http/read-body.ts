import { MailPulseError } from "../errors.js";

/**
 * Reads a request body of at most `maxBytes` bytes, whatever its type: PAYLOAD_TOO_LARGE (413)
 * past the limit, checked against Content-Length first and again while streaming, so nothing
 * beyond it is buffered; BAD_REQUEST when the client stops sending before the end. An absent
 * body is empty. The JSON, form and SNS readers are built on it.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return Buffer.alloc(0);
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
  return Buffer.concat(chunks);
}

/** {@link readBodyBytes} decoded as UTF-8 (malformed sequences become U+FFFD). */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return (await readBodyBytes(request, maxBytes)).toString("utf8");
}

function tooLarge(maxBytes: number): MailPulseError {
  return new MailPulseError("PAYLOAD_TOO_LARGE", `Request body exceeds the limit of ${maxBytes} bytes`);
}
