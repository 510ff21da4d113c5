import type { IncomingMessage, ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import type { DirectResponse } from "../http/direct-route.js";
import { clientAddressResolver } from "../measurement/client-address.js";
import { isMailPulsePath, isUnderBasePath, pathnameOf } from "./base-path.js";
import { bodyLeftUnread } from "./close-unread-body.js";
import { isBridgeableMethod, toWebRequest } from "./incoming-message-to-request.js";
import { serveDirect, writeDirectResponse } from "./serve-direct.js";
import type { MailPulseHttp } from "./types.js";
import { writeWebResponse } from "./write-web-response.js";

/** What the core answered: plain data from a direct route (the tracking routes), else a `Response`. */
export type NodeAnswer = DirectResponse | Response;

/**
 * Options of {@link serveNodeRequest}, one object per request. Every field is optional; without
 * any, the request is served at the root with the socket's address as the client's. `Req` is the
 * request type the host hands over (Express's `Request`), for the functions below; `Self` is the
 * type of the options object itself, which `onError` and `send` receive back.
 */
export interface ServeNodeRequestOptions<Req extends IncomingMessage = IncomingMessage, Self = unknown> {
  /**
   * The part of `req.url` in front of MailPulse's mount point (Fastify's `prefix`), taken off
   * before the core routes the path: with `/mail`, `/mail/api/stats` is `/api/stats`. Default: none
   * (Express already presents `req.url` relative to the router's mount point).
   */
  mountPath?: string;
  /**
   * The peer's address, or a function giving it (called only for requests MailPulse serves): the
   * framework's `req.ip`, which follows the host's own trust-proxy setting. The core then believes
   * `X-Forwarded-For` as far as `tracking.trustProxy` says. Default: the socket's address, or the
   * client-most `X-Forwarded-For` entry with `trustProxy`.
   */
  clientIp?: string | ((req: Req) => string | undefined);
  /**
   * The scheme of the request URL the core sees, or a function giving it (called only when a
   * `Request` is built, never on the tracking routes' direct path): Express `req.protocol`,
   * Fastify `request.protocol`. Default: `https` on a TLS socket, else `http` (`trustProxy`:
   * the first `X-Forwarded-Proto`).
   */
  protocol?: "http" | "https" | ((req: Req) => "http" | "https");
  /**
   * Believe `X-Forwarded-Proto` and `X-Forwarded-For` (the client-most entry, the rule of
   * `tracking.trustProxy: true`) where `protocol` and `clientIp` are not given; only behind a
   * proxy that sets both. Default: false.
   */
  trustProxy?: boolean;
  /**
   * The body a host parser already read off the stream (Express `req.body` after `express.json()`).
   * A string or `Uint8Array` goes on byte for byte; anything else as `JSON.stringify` under the
   * original content type. Default `undefined`: no parser ran, the body is streamed from `req`.
   */
  parsedBody?: unknown;
  /** The stream that yields the raw body, when it is not `req` (Fastify's payload). Default: `req`. */
  bodyStream?: Readable;
  /**
   * Called, with nothing written, for a request MailPulse does not serve: a path outside its base
   * path or not in its route table, or CONNECT/TRACE (which a fetch `Request` cannot carry).
   * Express passes `next`, so the host's later routes and its 404 handler see it. Default: a path
   * outside the base path is answered 404 `{"error":"Not found"}`, CONNECT/TRACE 405, and every
   * path under the base path goes to the core (its JSON 404 for one it does not know).
   */
  onUnmatched?: () => void;
  /**
   * Called with a failure the core could not turn into an answer (it never should; a body stream
   * that breaks after the headers went out can), and with what `send` throws. The second argument
   * is this options object. Express passes `next`. Default: logged with `console.error`, answered
   * 500 `{"error":"Internal server error"}`, or the connection ended when the answer had begun.
   */
  onError?: (error: unknown, options: Self) => void;
  /**
   * Writes the answer instead of the bridge: the Fastify adapter sends it through `reply.send`,
   * so the host's `onSend` hooks apply. Receives this options object, where a host can keep what
   * it writes to (Fastify keeps its `reply`) without a closure per request. `Connection: close`
   * is already set on `res` when the request's body was left unread. A promise it returns is
   * waited for (and its rejection goes to `onError`); any other value is ignored. Default: written
   * to `res` (status, headers kept unless overridden, the body streamed with backpressure).
   */
  send?: (answer: NodeAnswer, options: Self) => unknown;
}

const notFoundAnswer = jsonAnswer(404, "Not found");
const trustEveryProxy = clientAddressResolver(true);

/**
 * The Node bridge: serves one Node request through MailPulse and answers it. The tracking routes
 * take the direct path (plain data in and out, no `Request` or `Response`); every other route
 * gets a WHATWG `Request` from `req` (its body streamed lazily and cut off past the core's limit,
 * or a host parser's result re-serialized), the core's `Response` written to `res`. What is not
 * MailPulse's goes to `onUnmatched` when given. Headers the host set on `res` beforehand are kept.
 *
 * ```ts
 * createServer((req, res) => void serveNodeRequest(mailpulse, req, res));
 * router.use((req, res, next) => void serveNodeRequest(mailpulse, req, res, { onUnmatched: next, onError: next }));
 * ```
 *
 * Never rejects: failures go to `onError`. Resolves once the answer is written (or handed to
 * `send`), or once `onUnmatched` was called.
 */
export async function serveNodeRequest<
  Req extends IncomingMessage,
  Options extends ServeNodeRequestOptions<Req, Options>,
>(mailpulse: MailPulseHttp, req: Req, res: ServerResponse, options?: Options): Promise<void> {
  try {
    const url = withoutMountPath(req.url ?? "/", options?.mountPath);
    const pathname = pathnameOf(url);
    const refused = refusalOf(mailpulse, req.method, pathname, options?.onUnmatched !== undefined);
    if (refused === "unmatched") {
      options?.onUnmatched?.();
      return;
    }
    let answer: NodeAnswer | undefined = refused;
    if (answer === undefined) {
      const clientIp = clientIpOf(req, options);
      const direct = serveDirect(mailpulse, req, pathname, clientIp);
      answer = direct && (await direct);
      answer ??= await mailpulse.handler(webRequestOf(mailpulse, req, res, url, options), { clientIp });
    }
    if (options?.send === undefined) {
      if (answer instanceof Response) await writeWebResponse(res, answer);
      else writeDirectResponse(res, answer);
      return;
    }
    // A body the core did not read to its end (a 401 first, a 413) is not waited for.
    if (bodyLeftUnread(req)) res.setHeader("connection", "close");
    const sent = options.send(answer, options);
    // Only a real promise is waited for: awaiting a plain value (or a thenable such as Fastify's
    // reply, which would start watching the response's end) costs every hit for nothing.
    if (sent instanceof Promise) await sent;
  } catch (error) {
    if (options?.onError) options.onError(error, options);
    else answerFailure(res, error);
  }
}

/**
 * `undefined` when MailPulse serves the request; else `"unmatched"` when `onUnmatched` takes it,
 * or the bridge's own answer. GET and HEAD (every tracking hit) skip the method check.
 */
function refusalOf(
  mailpulse: MailPulseHttp,
  method: string | undefined,
  pathname: string,
  takesUnmatched: boolean,
): DirectResponse | "unmatched" | undefined {
  const ours = takesUnmatched
    ? isMailPulsePath(mailpulse, pathname)
    : isUnderBasePath(pathname, mailpulse.basePath);
  if (!ours) return takesUnmatched ? "unmatched" : notFoundAnswer;
  if (method === "GET" || method === "HEAD" || isBridgeableMethod(method)) return undefined;
  return takesUnmatched ? "unmatched" : jsonAnswer(405, `Method ${method} is not allowed`);
}

function clientIpOf<Req extends IncomingMessage>(
  req: Req,
  options: ServeNodeRequestOptions<Req, never> | undefined,
): string | undefined {
  const given = options?.clientIp;
  if (typeof given === "function") return given(req);
  if (given !== undefined) return given;
  const socketAddress = req.socket?.remoteAddress;
  if (options?.trustProxy !== true) return socketAddress;
  const forwarded = req.headers["x-forwarded-for"];
  return trustEveryProxy(socketAddress, (Array.isArray(forwarded) ? forwarded.join(",") : forwarded) ?? null);
}

function webRequestOf<Req extends IncomingMessage>(
  mailpulse: MailPulseHttp,
  req: Req,
  res: ServerResponse,
  url: string,
  options: ServeNodeRequestOptions<Req, never> | undefined,
): Request {
  const protocol = typeof options?.protocol === "function" ? options.protocol(req) : options?.protocol;
  return toWebRequest(req, {
    url,
    parsedBody: options?.parsedBody,
    bodyStream: options?.bodyStream,
    maxBodyBytes: mailpulse.maxBodyBytes,
    response: res,
    protocol,
    trustProxy: options?.trustProxy === true,
  });
}

function withoutMountPath(url: string, mountPath: string | undefined): string {
  if (mountPath === undefined || mountPath === "" || !url.startsWith(mountPath)) return url;
  return url.slice(mountPath.length);
}

/**
 * The bridge's own answer to a failure: logged, then 500 while nothing was written, else the
 * connection ends (the status can no longer change). Without a framework behind the bridge there
 * is nobody else to answer; the client is never left hanging.
 */
export function answerFailure(res: ServerResponse, error: unknown, report = logFailure): void {
  report(error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  writeDirectResponse(res, jsonAnswer(500, "Internal server error"));
}

function jsonAnswer(status: number, error: string): DirectResponse {
  const body = JSON.stringify({ error });
  return {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-length": String(Buffer.byteLength(body)),
    },
    body,
  };
}

function logFailure(error: unknown): void {
  console.error("[mailpulse]", error);
}
