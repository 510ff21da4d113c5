import type { MailPulseHttp } from "@mailpulse/core/node";
import {
  isBridgeableMethod,
  serveDirect,
  toWebRequest,
  writeDirectResponse,
  writeWebResponse,
} from "@mailpulse/core/node";
import type { Request, Router } from "express";
import express from "express";
import { isMailPulsePath } from "./mailpulse-path.js";

/**
 * An Express router that serves the MailPulse API under `/api` relative to wherever it is mounted:
 * `app.use(mailpulseExpress(mailpulse))` serves `/api/...`, `app.use("/mail", ...)` serves
 * `/mail/api/...` (the core still sees `/api/...`).
 *
 * It answers only the paths of MailPulse's route table (a wrong method on one of them is its
 * 405). Every other request falls through to the host's next route: `/api/users` registered after
 * the mount, `/apiary`, CONNECT/TRACE (which a fetch `Request` cannot carry). Works with or
 * without a body parser such as `express.json()` ahead of it; unexpected errors go to the host's
 * error middleware through `next(err)`, where {@link mailpulseErrorHandler} can answer them as JSON.
 */
export function mailpulseExpress(mailpulse: MailPulseHttp): Router {
  const router = express.Router();
  router.use(async (req, res, next) => {
    // req.path is relative to the mount point, which is exactly what the core routes on.
    if (!isBridgeableMethod(req.method) || !isMailPulsePath(mailpulse, req.path)) {
      next();
      return;
    }
    try {
      // req.ip, like req.protocol, is the client as the app's "trust proxy" setting sees it.
      const direct = await serveDirect(mailpulse, req, { pathname: req.path, clientIp: req.ip });
      if (direct) {
        writeDirectResponse(res, direct);
        return;
      }
      const request = toWebRequest(req, {
        url: req.url,
        parsedBody: bodyWasParsed(req) ? req.body : undefined,
        maxBodyBytes: mailpulse.maxBodyBytes,
        protocol: req.protocol === "https" ? "https" : "http",
        response: res,
      });
      await writeWebResponse(res, await mailpulse.handler(request, { clientIp: req.ip }));
    } catch (error) {
      next(error);
    }
  });
  return router;
}

/** body-parser marks `req._body`; other parsers at least leave the stream ended. */
function bodyWasParsed(req: Request): boolean {
  return (req as Request & { _body?: unknown })._body === true || req.readableEnded;
}
