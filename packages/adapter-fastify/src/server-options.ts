import type { MailPulseHttp } from "@mailpulse/core/node";
import { isUnderBasePath, pathnameOf } from "@mailpulse/core/node";
import type { FastifyReply, FastifyServerOptions } from "fastify";
import { createFastifyServe } from "./serve.js";

/** Node's parser and timeout errors that have a status of their own; anything else is 400. */
const clientErrorAnswers: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout"],
};

/** The `Fastify()` options {@link mailpulseFastifyServerOptions} returns. */
export type MailPulseFastifyServerOptions = Pick<
  FastifyServerOptions,
  "frameworkErrors" | "clientErrorHandler"
>;

/**
 * Server options that let MailPulse answer what Fastify refuses before any plugin runs:
 * `Fastify({ ...mailpulseFastifyServerOptions(mailpulse, { prefix: "/mail" }) })`.
 *
 * - `frameworkErrors`: a URL Fastify cannot decode (`%FF`, `%`, `%u0041`) under MailPulse's mount
 *   point goes to the core, which answers `{"error": "Malformed percent-encoding in the URL path"}`
 *   (and the pixel its GIF); elsewhere Fastify's own answer stands.
 * - `clientErrorHandler`: a request head past Node's `maxHeaderSize` (16 KiB by default, e.g. a
 *   20,000-character id) or otherwise unparsable is answered with a bare status line and no body
 *   (Fastify's default writes a JSON body, even to HEAD), then the connection is closed; a request
 *   not received within the server's `requestTimeout`/`headersTimeout` gets a bare 408 the same way.
 *
 * `prefix` is the one the plugin is registered with (default none). Pass a function returning
 * the instance when the app must exist first (to give MailPulse Fastify's `app.log`): it is called
 * at the first refused request, never while the app is being built.
 */
export function mailpulseFastifyServerOptions(
  mailpulse: MailPulseHttp | (() => MailPulseHttp),
  options: { prefix?: string } = {},
): MailPulseFastifyServerOptions {
  const prefix = options.prefix ?? "";
  const instance = typeof mailpulse === "function" ? mailpulse : () => mailpulse;
  let serve: ReturnType<typeof createFastifyServe> | undefined;
  return {
    frameworkErrors: (error, request, reply) => {
      const pathname = pathnameOf(request.url);
      const mounted = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : undefined;
      if (mounted !== undefined && isUnderBasePath(mounted, instance().basePath)) {
        serve ??= createFastifyServe(instance(), prefix);
        void serve(request, reply);
        return;
      }
      // Fastify's own answer, as it gives it without `frameworkErrors`.
      (reply as FastifyReply).status(error.statusCode ?? 400).send(error);
    },
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return;
      const [status, reason] = clientErrorAnswers[(error as { code?: string }).code ?? ""] ?? [
        400,
        "Bad Request",
      ];
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    },
  };
}
