import { defineRoute } from "../http/route.js";
import { getEmailDocs, registerEmailDocs, sendEmailDocs } from "../openapi/operations/email-docs.js";
import type { EmailService } from "../services/email-service.js";
import type { IdempotencyService } from "../services/idempotency-service.js";
import { idParams } from "./id-params.js";
import { handleIdempotently } from "./idempotent-handler.js";

// NUL is refused as in bodies: PostgreSQL cannot even compare a text with one.

/**
 * `POST /api/send`, `POST /api/emails` and `GET /api/emails/:id`. The handler parses the body once
 * with the service method's schema; the routes call the method's `parsed` entry (an in-process
 * caller of the method itself gets the same checks).
 */
export function emailRoutes(emails: EmailService, idempotency: IdempotencyService, maxSendBodyBytes: number) {
  return [
    defineRoute({
      method: "POST",
      path: "/send",
      docs: sendEmailDocs,
      input: { from: "body", schema: emails.send.schema },
      maxBodyBytes: maxSendBodyBytes,
      handle: (context) =>
        handleIdempotently(idempotency, context, { operation: "POST /send", successStatus: 200 }, () =>
          emails.send.parsed(context.organizationId, context.input),
        ),
    }),
    defineRoute({
      method: "POST",
      path: "/emails",
      docs: registerEmailDocs,
      input: { from: "body", schema: emails.register.schema },
      maxBodyBytes: maxSendBodyBytes,
      status: 201,
      handle: (context) =>
        handleIdempotently(idempotency, context, { operation: "POST /emails", successStatus: 201 }, () =>
          emails.register.parsed(context.organizationId, context.input),
        ),
    }),
    defineRoute({
      method: "GET",
      path: "/emails/:id",
      docs: getEmailDocs,
      params: idParams,
      handle: ({ organizationId, params }) => emails.get(organizationId, params.id),
    }),
  ];
}
