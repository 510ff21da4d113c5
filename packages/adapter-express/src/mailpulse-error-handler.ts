import type { MailPulseHttp } from "@mailpulse/core/node";
import { isMailPulsePath, isUnderBasePath } from "@mailpulse/core/node";
import type { ErrorRequestHandler } from "express";

/** Where {@link mailpulseErrorHandler} reports a failure it answers with a 500. */
export interface MailPulseErrorHandlerOptions {
  /** Receives the failure with its stack. Default: `console.error`. */
  onError?: (message: string, error: unknown) => void;
}

/** What body-parser (through http-errors) attaches to the errors it passes to `next(err)`. */
interface HttpError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
  limit?: unknown;
  message?: unknown;
}

/**
 * Express error middleware that keeps MailPulse's answers JSON when something fails before
 * MailPulse sees the request: a body parser ahead of it (`express.json()`) rejecting malformed
 * JSON (400) or an oversized body (413), which Express would answer with an HTML page. Mount it
 * after your routes and before your own error handler:
 *
 * ```ts
 * app.use(express.json({ limit: mailpulse.maxBodyBytes }));
 * app.use(mailpulseExpress(mailpulse));
 * app.use(mailpulseErrorHandler(mailpulse));
 * ```
 *
 * - A client error (4xx from a body parser) on a path under the base path (`/api/...`, your own
 *   `/api` routes included) is answered `{"error": "..."}` with its status, in MailPulse's wording
 *   (`Invalid JSON in request body: ...`, `Request body exceeds the limit of N bytes`).
 * - Any other error on one of MailPulse's own routes is logged and answered 500
 *   `{"error":"Internal server error"}`.
 * - Everything else (other paths, server errors of your routes, a response already started) goes
 *   on to your next error handler untouched.
 */
export function mailpulseErrorHandler(
  mailpulse: MailPulseHttp,
  options: MailPulseErrorHandlerOptions = {},
): ErrorRequestHandler {
  const onError = options.onError ?? ((message, error) => console.error(message, error));
  return (error: unknown, req, res, next) => {
    if (res.headersSent || !isUnderBasePath(req.path, mailpulse.basePath)) {
      next(error);
      return;
    }
    const clientError = clientErrorOf(error);
    if (clientError) {
      res.status(clientError.status).json({ error: clientError.message });
      return;
    }
    if (!isMailPulsePath(mailpulse, req.path)) {
      next(error);
      return;
    }
    onError(`MailPulse: unexpected error on ${req.method} ${req.originalUrl}`, error);
    res.status(500).json({ error: "Internal server error" });
  };
}

/** A 4xx the error says it may show the client (http-errors' `expose`), worded like the core's own. */
function clientErrorOf(error: unknown): { status: number; message: string } | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const details = error as HttpError;
  const status = typeof details.status === "number" ? details.status : details.statusCode;
  if (typeof status !== "number" || status < 400 || status > 499 || details.expose !== true) return undefined;
  const message = typeof details.message === "string" ? details.message : "Bad request";
  switch (details.type) {
    case "entity.parse.failed":
      return { status, message: `Invalid JSON in request body: ${message}` };
    case "entity.too.large":
      return {
        status,
        message:
          typeof details.limit === "number"
            ? `Request body exceeds the limit of ${details.limit} bytes`
            : "Request body is too large",
      };
    default:
      return { status, message };
  }
}
