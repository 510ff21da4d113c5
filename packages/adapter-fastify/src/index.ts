import type { MailPulseHttp } from "@mailpulse/core/node";
import type { FastifyPluginAsync, HTTPMethods } from "fastify";
import { createFastifyServe, setContentTypeAside } from "./serve.js";

export type { MailPulseHttp, MailPulseRequestInfo } from "@mailpulse/core/node";
export {
  type MailPulseFastifyServerOptions,
  mailpulseFastifyServerOptions,
} from "./server-options.js";

/** Options of {@link mailpulseFastify}; Fastify's own `prefix` may be passed beside them. */
export interface MailPulseFastifyOptions {
  /** The MailPulse instance whose API to serve. */
  mailpulse: MailPulseHttp;
}

/** Methods Fastify never parses a body for (`kSupportedHTTPMethods.bodyless`, less TRACE). */
const BODYLESS_METHODS: HTTPMethods[] = ["GET", "HEAD"];
const BODY_METHODS: HTTPMethods[] = ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * A Fastify plugin serving the MailPulse API at `/api` under the registration's `prefix`:
 * `app.register(mailpulseFastify, { mailpulse, prefix: "/mail" })` serves `/mail/api/...`.
 *
 * Deliberately not wrapped in `fastify-plugin`: it runs in its own encapsulated scope, where every
 * content-type parser is replaced by one that hands the raw payload stream to the core untouched
 * (the core parses JSON, enforces its body limit and content type, after checking the key). The
 * host's parsers and routes outside this scope are unaffected. Responses go out through
 * `reply.send`, so the host's `onSend` hooks and headers (CORS, compression) still apply.
 *
 * Register it with the `prefix` `baseUrl`'s path says (`baseUrl: "https://example.com/mail"`,
 * `prefix: "/mail"`): a prefix that disagrees is logged as an error line at registration.
 *
 * Fastify answers malformed URLs (`%FF`) and oversized request heads itself, before any plugin
 * runs: pass {@link mailpulseFastifyServerOptions} to `Fastify()` to have MailPulse answer those.
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

  // Tracking URLs are built from `baseUrl`: a prefix that disagrees with its path is logged now.
  mailpulse.checkMountPath?.(instance.prefix, "The Fastify plugin");
  const serve = createFastifyServe(mailpulse, instance.prefix);
  // HEAD is listed explicitly so the core answers it, instead of Fastify's derived GET-minus-body.
  // Fastify never reads a GET or HEAD body, nor checks its Content-Type: those routes (every
  // tracking hit) skip the hook that sets the header aside, and the promise it costs.
  const bodyless = { method: BODYLESS_METHODS, handler: serve, exposeHeadRoute: false };
  const withBody = { method: BODY_METHODS, onRequest: setContentTypeAside, handler: serve };
  for (const url of [mailpulse.basePath, `${mailpulse.basePath}/*`]) {
    instance.route({ ...bodyless, url });
    instance.route({ ...withBody, url });
  }
};
