import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import type { MailPulseHttp } from "@mailpulse/core/node";
import { type NodeAnswer, type ServeNodeRequestOptions, serveNodeRequest } from "@mailpulse/core/node";
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

/** The bridge's options for one request, with the reply its answer goes out through. */
interface FastifyBridgeOptions extends ServeNodeRequestOptions<IncomingMessage, FastifyBridgeOptions> {
  reply: FastifyReply;
}

/**
 * Serves one request through the core from Fastify's request and reply: one call of the Node
 * bridge, with the registration prefix taken off the path and the answer sent through
 * `reply.send`. Also used by `mailpulseFastifyServerOptions` for requests Fastify refused before
 * routing. Every request that reaches it is MailPulse's (the plugin routes only its base path), so
 * there is no `onUnmatched`: an `/api` path the route table lacks gets the core's JSON 404.
 */
export function createFastifyServe(mailpulse: MailPulseHttp, prefix: string) {
  return (request: FastifyRequest, reply: FastifyReply): void => {
    restoreContentType(request);
    const options: FastifyBridgeOptions = {
      mountPath: prefix,
      // request.ip and request.protocol already follow the server's trustProxy option.
      clientIp: request.ip,
      protocol: request.protocol,
      bodyStream: isReadable(request.body) ? request.body : undefined,
      reply,
      send: sendThroughReply,
      onError: failThroughReply,
    };
    void serveNodeRequest(mailpulse, request.raw, reply.raw, options);
  };
}

// Module-level, not closures: the bridge hands each its request's options, which hold the reply.
function sendThroughReply(answer: NodeAnswer, options: FastifyBridgeOptions): void {
  if (answer instanceof Response) options.reply.send(answer);
  else options.reply.code(answer.status).headers(answer.headers).send(answer.body);
}

/** Fastify's own error handling (the host's `setErrorHandler`, its logger) takes it from here. */
function failThroughReply(error: unknown, options: FastifyBridgeOptions): void {
  options.reply.send(error);
}

function isReadable(value: unknown): value is Readable {
  return typeof (value as Readable | undefined)?.pipe === "function";
}
