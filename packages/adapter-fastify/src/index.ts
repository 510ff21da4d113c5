import type { Readable } from "node:stream";
import type { MailPulseHttp } from "@mailpulse/core/node";
import { pathnameOf, serveDirect, toWebRequest } from "@mailpulse/core/node";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";

export type { MailPulseHttp, MailPulseRequestInfo } from "@mailpulse/core/node";

/** Options of {@link mailpulseFastify}; Fastify's own `prefix` may be passed beside them. */
export interface MailPulseFastifyOptions {
  /** The MailPulse instance whose API to serve. */
  mailpulse: MailPulseHttp;
}

const METHODS: HTTPMethods[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * A Fastify plugin serving the MailPulse API at `/api` under the registration's `prefix`:
 * `app.register(mailpulseFastify, { mailpulse, prefix: "/mail" })` serves `/mail/api/...`.
 *
 * Deliberately not wrapped in `fastify-plugin`: it runs in its own encapsulated scope, where every
 * content-type parser is replaced by one that hands the raw payload stream to the core untouched
 * (the core parses JSON, enforces its body limit and content type). The host's parsers and routes
 * outside this scope are unaffected. Responses go out through `reply.send`, so the host's
 * `onSend` hooks and headers (CORS, compression) still apply.
 */
export const mailpulseFastify: FastifyPluginAsync<MailPulseFastifyOptions> = async (instance, options) => {
  const mailpulse = options.mailpulse;
  if (mailpulse === undefined) throw new TypeError("mailpulseFastify needs the `mailpulse` option");

  // Passing the stream on unread (rather than parseAs: "buffer") keeps Fastify's bodyLimit and its
  // error format out of the way: the core alone decides 413 and 415, in its own JSON shape.
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser("*", (_request, payload, done) => {
    done(null, payload);
  });

  const prefix = instance.prefix;
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const pathname = withoutPrefix(pathnameOf(request.url), prefix);
    const direct = await serveDirect(mailpulse, request.raw, { pathname, clientIp: request.ip });
    if (direct) return reply.code(direct.status).headers(direct.headers).send(direct.body);
    const webRequest = toWebRequest(request.raw, {
      url: withoutPrefix(request.url, prefix),
      bodyStream: isReadable(request.body) ? request.body : undefined,
      maxBodyBytes: mailpulse.maxBodyBytes,
      // request.protocol (and request.ip below) already follow the server's trustProxy option.
      protocol: request.protocol,
      response: reply.raw,
    });
    return reply.send(await mailpulse.handler(webRequest, { clientIp: request.ip }));
  };

  // HEAD is listed explicitly so the core answers it, instead of Fastify's derived GET-minus-body.
  const route = { method: METHODS, handler, exposeHeadRoute: false };
  instance.route({ ...route, url: mailpulse.basePath });
  instance.route({ ...route, url: `${mailpulse.basePath}/*` });
};

/** The core routes on paths relative to the mount point, so the registration prefix comes off. */
function withoutPrefix(url: string, prefix: string): string {
  if (prefix === "" || !url.startsWith(prefix)) return url;
  return url.slice(prefix.length);
}

function isReadable(value: unknown): value is Readable {
  return typeof (value as Readable | undefined)?.pipe === "function";
}
