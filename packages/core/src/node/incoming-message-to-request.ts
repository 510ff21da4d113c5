import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import type { TLSSocket } from "node:tls";
import { exceedsJsonDepth, tooDeepJsonText } from "../util/json-depth.js";

/** Options of {@link toWebRequest}. */
export interface ToWebRequestOptions {
  /**
   * Path and query to present instead of `req.url`. Adapters pass the path relative to their
   * mount point (inside an Express router that is `req.url`), so the core always sees `/api/...`.
   * Default: `req.url`.
   */
  url?: string;
  /**
   * The body a host parser already read off the stream (Express `req.body` after `express.json()`).
   * A string or `Uint8Array` is passed on byte for byte; anything else is serialized with
   * `JSON.stringify` under the original content type. `undefined` means "no parser ran".
   */
  parsedBody?: unknown;
  /**
   * The stream that yields the raw body, when it is not `req` itself (Fastify hands its content-type
   * parsers the payload after the host's `preParsing` hooks have wrapped it). Default: `req`.
   */
  bodyStream?: Readable;
  /**
   * The core's body limit. A streamed body is cut off after `maxBodyBytes + 1` bytes: one byte too
   * many is all the core needs to answer 413, and nothing more is buffered.
   */
  maxBodyBytes: number;
  /** A further signal that aborts the request, combined with the client-disconnect signal. */
  signal?: AbortSignal;
  /**
   * The response belonging to `req`. When given, the request's signal aborts if the client goes
   * away before this response has finished. Without it only `signal` can abort the request.
   */
  response?: ServerResponse;
  /**
   * The protocol the host framework already determined (Express `req.protocol`, Fastify
   * `request.protocol`), which honours the host's own trust-proxy setting. Overrides `trustProxy`.
   */
  protocol?: "http" | "https";
  /**
   * Believe the first `X-Forwarded-Proto` value. Only safe behind a proxy that sets it; otherwise
   * any client could claim https. Default: false (the socket decides: TLS is https, else http).
   */
  trustProxy?: boolean;
}

const BODYLESS_METHODS = new Set(["GET", "HEAD"]);
// Methods the fetch standard forbids: `new Request` throws on them, and Node's server accepts them.
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);
// Characters a Host header may hold without changing where the URL's path begins; anything else
// ("/", "?", "#", "@", "\") could smuggle a different path or origin into the URL.
const SAFE_HOST = /^[\w.\-~%!$&'()*+,;=:[\]]+$/;

/**
 * Whether {@link toWebRequest} can represent a request with this method. CONNECT, TRACE and TRACK
 * cannot be a WHATWG `Request`; adapters treat them as not MailPulse's (the API has no use for
 * them) instead of letting a client's method turn into a 500.
 */
export function isBridgeableMethod(method: string | undefined): boolean {
  return !FORBIDDEN_METHODS.has((method ?? "GET").toUpperCase());
}

/**
 * Builds a WHATWG `Request` from a Node `IncomingMessage`, the one translation every adapter
 * shares. The URL is absolute (from the Host header; `localhost` when it is missing or malformed),
 * headers keep Node's multi-value handling, and the body is:
 * - none for GET and HEAD;
 * - `parsedBody` re-serialized, when a host parser already consumed the stream;
 * - otherwise the unread stream, passed on lazily and cut off one byte past `maxBodyBytes`.
 *
 * Never reads the whole body itself; the core does, and enforces the limit (413). Throws a
 * `TypeError` for the methods {@link isBridgeableMethod} rejects; check first.
 */
export function toWebRequest(req: IncomingMessage, options: ToWebRequestOptions): Request {
  const method = (req.method ?? "GET").toUpperCase();
  const headers = toHeaders(req.headers);
  const body = BODYLESS_METHODS.has(method) ? null : selectBody(req, headers, options);
  const init: RequestInit & { duplex?: "half" } = {
    method,
    headers,
    body,
    signal: requestSignal(options),
  };
  // Node's fetch refuses a stream body without `duplex: "half"`; it is harmless for other bodies.
  if (body !== null) init.duplex = "half";
  return new Request(requestUrl(req, options), init);
}

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    // HTTP/2 pseudo-headers (":path", ":authority") are not headers and Headers rejects them.
    if (value === undefined || name.startsWith(":")) continue;
    if (Array.isArray(value)) {
      for (const item of value) headers.append(name, item);
    } else {
      headers.set(name, value);
    }
  }
  return headers;
}

function requestUrl(req: IncomingMessage, options: ToWebRequestOptions): URL {
  const target = options.url ?? req.url ?? "/";
  const pathAndQuery = target.startsWith("/") ? target : absoluteFormPath(target);
  const protocol = options.protocol ?? detectProtocol(req, options.trustProxy === true);
  const host = req.headers.host ?? req.headers[":authority"];
  if (typeof host === "string" && SAFE_HOST.test(host)) {
    try {
      // Concatenated rather than resolved against a base so that "//evil.example/api" stays a path.
      return new URL(`${protocol}://${host}${pathAndQuery}`);
    } catch {
      // An unparsable Host (a bad port, say) is the client's problem, not a reason to fail.
    }
  }
  return new URL(`${protocol}://localhost${pathAndQuery}`);
}

function absoluteFormPath(target: string): string {
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return "/";
  }
}

function detectProtocol(req: IncomingMessage, trustProxy: boolean): "http" | "https" {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-proto"];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim().toLowerCase();
    if (first === "http" || first === "https") return first;
  }
  return (req.socket as Partial<TLSSocket> | undefined)?.encrypted === true ? "https" : "http";
}

function requestSignal(options: ToWebRequestOptions): AbortSignal {
  const disconnect = new AbortController();
  const response = options.response;
  if (response !== undefined) {
    // "close" on the response fires both after a normal finish and when the socket dies first;
    // only the second is a disconnect the core should hear about.
    response.once("close", () => {
      if (!response.writableFinished) {
        disconnect.abort(new DOMException("The client closed the connection", "AbortError"));
      }
    });
  }
  return options.signal === undefined
    ? disconnect.signal
    : AbortSignal.any([disconnect.signal, options.signal]);
}

function selectBody(req: IncomingMessage, headers: Headers, options: ToWebRequestOptions): BodyInit | null {
  if (options.parsedBody !== undefined) return serializeParsedBody(options.parsedBody, headers);
  const stream = options.bodyStream ?? req;
  // Consumed by something that left nothing behind: there is no body left to give.
  if (stream.readableEnded) return null;
  if (!declaresBody(req.headers)) return null;
  return limitedWebStream(stream, options.maxBodyBytes);
}

function declaresBody(incoming: IncomingHttpHeaders): boolean {
  if (incoming["transfer-encoding"] !== undefined) return true;
  const length = incoming["content-length"];
  return length !== undefined && length !== "0";
}

function serializeParsedBody(parsed: unknown, headers: Headers): Uint8Array<ArrayBuffer> {
  let bytes: Uint8Array<ArrayBuffer>;
  if (parsed instanceof Uint8Array) {
    bytes = new Uint8Array(parsed);
  } else if (isFormFields(parsed, headers)) {
    // `express.urlencoded()` (or multer's fields) ahead: JSON under a form's content type would
    // read as no form at all, so the fields go on as the URL-encoded form they were.
    bytes = new TextEncoder().encode(new URLSearchParams(parsed).toString());
    headers.set("content-type", "application/x-www-form-urlencoded");
  } else {
    // Past the core's depth bound JSON.stringify may overflow the stack (a 500 from a host parser's
    // output); the core would refuse the body anyway, so it gets one that it refuses the same way.
    const text =
      typeof parsed === "string"
        ? parsed
        : exceedsJsonDepth(parsed)
          ? tooDeepJsonText()
          : (JSON.stringify(parsed) ?? "");
    bytes = new TextEncoder().encode(text);
  }
  // The body is no longer the bytes on the wire: host parsers inflate gzip and JSON.stringify
  // changes the length, so framing and encoding headers must describe the new body instead.
  headers.delete("content-encoding");
  headers.delete("transfer-encoding");
  headers.set("content-length", String(bytes.byteLength));
  return bytes;
}

const FORM_TYPE = /^(?:application\/x-www-form-urlencoded|multipart\/form-data)\s*(?:;|$)/i;

/** A host form parser's output (string fields only) for a request sent as a form. */
function isFormFields(parsed: unknown, headers: Headers): parsed is Record<string, string> {
  if (!FORM_TYPE.test(headers.get("content-type") ?? "")) return false;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return false;
  return Object.values(parsed).every((value) => typeof value === "string");
}

/**
 * A web stream over a Node stream that stops after `maxBodyBytes + 1` bytes. Written by hand instead
 * of `Readable.toWeb` for two reasons: the cut-off bounds memory (nothing beyond the limit is ever
 * queued, so no backpressure bookkeeping is needed), and once cut off or cancelled the rest of the
 * upload is drained, so a keep-alive connection is not left stuck behind an unread body.
 */
function limitedWebStream(source: Readable, maxBodyBytes: number): ReadableStream<Uint8Array> {
  const cap = maxBodyBytes + 1;
  let received = 0;
  let settled = false;
  let detach = (): void => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const onData = (chunk: Buffer | string): void => {
        if (settled) return;
        const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
        const room = cap - received;
        received += bytes.byteLength;
        if (bytes.byteLength < room) {
          controller.enqueue(bytes);
          return;
        }
        controller.enqueue(bytes.subarray(0, room));
        settle();
        controller.close();
      };
      const onEnd = (): void => {
        if (settled) return;
        settle();
        controller.close();
      };
      const onError = (error: Error): void => {
        if (settled) return;
        settle();
        controller.error(error);
      };
      const onClose = (): void => {
        // "close" without "end": the client went away mid-upload.
        onError(new Error("The request body ended before it was complete"));
      };
      const settle = (): void => {
        settled = true;
        detach();
      };
      detach = () => {
        source.off("data", onData);
        source.off("end", onEnd);
        source.off("error", onError);
        source.off("close", onClose);
        // Keep the connection usable: discard whatever the client is still sending.
        source.on("error", () => {});
        source.resume();
      };
      source.on("data", onData);
      source.once("end", onEnd);
      source.once("error", onError);
      source.once("close", onClose);
    },
    cancel() {
      if (settled) return;
      settled = true;
      detach();
    },
  });
}
