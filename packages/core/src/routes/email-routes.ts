import { z } from "zod";
import { defineRoute } from "../http/route.js";
import type { EmailService } from "../services/email-service.js";
import type { RegisterEmailInput, SendEmailInput } from "../services/sending/send-input.js";

// The services validate their input themselves (in-process callers get the same 400s), so the
// routes only read the JSON body and hand it over.
const jsonBody = z.unknown();

/** `POST /api/send` and `POST /api/emails`. */
export function emailRoutes(emails: EmailService) {
  return [
    defineRoute({
      method: "POST",
      path: "/api/send",
      body: jsonBody,
      handle: ({ organizationId, body }) => emails.send(organizationId, body as SendEmailInput),
    }),
    defineRoute({
      method: "POST",
      path: "/api/emails",
      body: jsonBody,
      status: 201,
      handle: ({ organizationId, body }) => emails.register(organizationId, body as RegisterEmailInput),
    }),
  ];
}
