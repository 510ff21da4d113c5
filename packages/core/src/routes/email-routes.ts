import { z } from "zod";
import { defineRoute } from "../http/route.js";
import { getEmailDocs, registerEmailDocs, sendEmailDocs } from "../openapi/operations/email-docs.js";
import type { EmailService } from "../services/email-service.js";
import {
  type RegisterEmailInput,
  registerEmailSchema,
  type SendEmailInput,
  sendEmailSchema,
} from "../services/sending/send-input.js";

const idParams = z.object({ id: z.string().min(1).max(200) });

/**
 * `POST /api/send`, `POST /api/emails` and `GET /api/emails/:id`. The services validate their input themselves (an
 * in-process caller gets the same checks), so the routes hand the JSON body over unparsed, typed
 * as what it should be.
 */
export function emailRoutes(emails: EmailService, maxSendBodyBytes: number) {
  return [
    defineRoute({
      method: "POST",
      path: "/send",
      docs: sendEmailDocs,
      input: { from: "body", schema: sendEmailSchema },
      maxBodyBytes: maxSendBodyBytes,
      handle: ({ organizationId, input }) => emails.send(organizationId, input as SendEmailInput),
    }),
    defineRoute({
      method: "POST",
      path: "/emails",
      docs: registerEmailDocs,
      input: { from: "body", schema: registerEmailSchema },
      maxBodyBytes: maxSendBodyBytes,
      status: 201,
      handle: ({ organizationId, input }) => emails.register(organizationId, input as RegisterEmailInput),
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
