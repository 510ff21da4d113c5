/**
 * `@mailpulse/adapter-express`: mount the MailPulse API in an Express app.
 *
 * ```ts
 * app.use(express.json({ limit: mailpulse.maxBodyBytes }));
 * app.use(mailpulseExpress(mailpulse));   // serves /api/... beside your routes
 * app.use(mailpulseErrorHandler(mailpulse)); // keeps body-parser errors on /api JSON
 * ```
 */
export type { MailPulseHttp, MailPulseRequestInfo } from "@mailpulse/core/node";
export { type MailPulseErrorHandlerOptions, mailpulseErrorHandler } from "./mailpulse-error-handler.js";
export { mailpulseExpress } from "./mailpulse-express.js";
