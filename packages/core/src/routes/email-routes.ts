import { defineRoute } from "../http/route.js";
import { getEmailDocs, registerEmailDocs, sendEmailDocs } from "../openapi/operations/email-docs.js";
import type { EmailService } from "../services/email-service.js";
import type { IdempotencyService } from "../services/idempotency-service.js";
import {
  type RegisterEmailInput,
  registerEmailSchema,
  type SendEmailInput,
  sendEmailSchema,
} from "../services/sending/send-input.js";
import { idParams } from "./id-params.js";
import { handleIdempotently } from "./idempotent-handler.js";

// NUL is refused as in bodies: PostgreSQL cannot even compare a text with one.

/**
 * `POST /api/send`, `POST /api/emails` and `GET /api/emails/:id`. The services validate their input themselves (an
 * in-process caller gets the same checks), so the routes hand the JSON body over unparsed, typed
 * as what it should be.
 */
export function emailRoutes(emails: EmailService, idempotency: IdempotencyService, maxSendBodyBytes: number) {
  return [
    defineRoute({
      method: "POST",
      path: "/send",
      docs: sendEmailDocs,
      input: { from: "body", schema: sendEmailSchema },
      maxBodyBytes: maxSendBodyBytes,
      handle: (context) =>
        handleIdempotently(idempotency, context, { operation: "POST /send", successStatus: 200 }, () =>
          emails.send(context.organizationId, context.input as SendEmailInput),
        ),
    }),
    defineRoute({
      method: "POST",
      path: "/emails",
      docs: registerEmailDocs,
      input: { from: "body", schema: registerEmailSchema },
      maxBodyBytes: maxSendBodyBytes,
      status: 201,
      handle: (context) =>
        handleIdempotently(idempotency, context, { operation: "POST /emails", successStatus: 201 }, () =>
          emails.register(context.organizationId, context.input as RegisterEmailInput),
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
