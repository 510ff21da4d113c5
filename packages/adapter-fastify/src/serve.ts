import type { Readable } from "node:stream";
import type { MailPulseHttp } from "@mailpulse/core/node";
import { bodyLeftUnread, pathnameOf, serveDirect, toWebRequest } from "@mailpulse/core/node";
import type { FastifyReply, FastifyRequest } from "fastify";

/** Each request's `Content-Type` as the client sent it, while Fastify sees a neutral one. */
const sentContentTypes = new WeakMap<object, string | undefined>();

/**
 * Fastify checks a `Content-Type`'s syntax before any parser, and answers an empty or malformed
 * one with its own 415 before the key is checked. The core decides that (after 401), so Fastify
 * sees a neutral type and the header goes back as sent before the core reads the request.
 */
export function setContentTypeAside(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  sentContentTypes.set(request.raw, request.headers["content-type"]);
  request.headers["content-type"] = "application/octet-stream";
  done();
}

function restoreContentType(request: FastifyRequest): void {
  if (!sentContentTypes.has(request.raw)) return;
  const sent = sentContentTypes.get(request.raw);
  if (sent === undefined) delete request.raw.headers["content-type"];
  else request.raw.headers["content-type"] = sent;
  sentContentTypes.delete(request.raw);
}

/**
 * Serves one request through the core from Fastify's request and reply. Also used by
 * `mailpulseFastifyServerOptions` for requests Fastify refused before routing.
 */
export function createFastifyServe(mailpulse: MailPulseHttp, prefix: string) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    restoreContentType(request);
    const pathname = withoutPrefix(pathnameOf(request.url), prefix);
    const direct = await serveDirect(mailpulse, request.raw, { pathname, clientIp: request.ip });
    if (direct) {
      if (bodyLeftUnread(request.raw)) reply.header("connection", "close");
      return reply.code(direct.status).headers(direct.headers).send(direct.body);
    }
    const webRequest = toWebRequest(request.raw, {
      url: withoutPrefix(request.url, prefix),
      bodyStream: isReadable(request.body) ? request.body : undefined,
      maxBodyBytes: mailpulse.maxBodyBytes,
      // request.protocol (and request.ip below) already follow the server's trustProxy option.
      protocol: request.protocol,
      response: reply.raw,
    });
    const response = await mailpulse.handler(webRequest, { clientIp: request.ip });
    // A body the core did not read to its end (a 401 first, a 413) is not waited for.
    if (bodyLeftUnread(request.raw)) reply.header("connection", "close");
    return reply.send(response);
  };
}

/** The core routes on paths relative to the mount point, so the registration prefix comes off. */
function withoutPrefix(url: string, prefix: string): string {
  if (prefix === "" || !url.startsWith(prefix)) return url;
  return url.slice(prefix.length);
}

function isReadable(value: unknown): value is Readable {
  return typeof (value as Readable | undefined)?.pipe === "function";
}
