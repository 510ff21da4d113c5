import type { MailPulseHttp } from "@mailpulse/core/node";
import { serveNodeRequest } from "@mailpulse/core/node";
import type { Request, Router } from "express";
import express from "express";

/**
 * An Express router that serves the MailPulse API under `/api` relative to wherever it is mounted:
 * `app.use(mailpulseExpress(mailpulse))` serves `/api/...`, `app.use("/mail", ...)` serves
 * `/mail/api/...` (the core still sees `/api/...`).
 *
 * It answers only the paths of MailPulse's route table (a wrong method on one of them is its
 * 405). Every other request falls through to the host's next route through `next()`: `/api/users`
 * registered after the mount, `/apiary`, CONNECT/TRACE (which a fetch `Request` cannot carry), and
 * in the end the host's 404. Works with or without a body parser such as `express.json()` ahead
 * of it; unexpected errors go to the host's error middleware through `next(err)`, where
 * {@link mailpulseErrorHandler} can answer them as JSON.
 *
 * Mount it where `baseUrl`'s path says (`baseUrl: "https://example.com/mail"` with
 * `app.use("/mail", ...)`): tracking URLs are built from `baseUrl`. At the first request it
 * compares its mount point (`req.baseUrl`) with `baseUrl` and logs an error line when they
 * disagree.
 */
export function mailpulseExpress(mailpulse: MailPulseHttp): Router {
  const router = express.Router();
  let mountChecked = false;
  router.use((req, res, next) => {
    if (!mountChecked) {
      // Where the router is mounted is only known once a request passes through it.
      mountChecked = true;
      mailpulse.checkMountPath?.(req.baseUrl, "The Express adapter");
    }
    // req.url is relative to the mount point, which is exactly what the core routes on.
    void serveNodeRequest(mailpulse, req, res, {
      clientIp: clientIpOf,
      protocol: protocolOf,
      parsedBody: bodyWasParsed(req) ? req.body : undefined,
      onUnmatched: next,
      onError: next,
    });
  });
  return router;
}

// req.ip and req.protocol are the client and scheme as the app's "trust proxy" setting sees them.
// Passed as functions so that requests MailPulse leaves to the host never compute them.
function clientIpOf(req: Request): string | undefined {
  return req.ip;
}

function protocolOf(req: Request): "http" | "https" {
  return req.protocol === "https" ? "https" : "http";
}

/** body-parser marks `req._body`; other parsers at least leave the stream ended. */
function bodyWasParsed(req: Request): boolean {
  return (req as Request & { _body?: unknown })._body === true || req.readableEnded;
}
