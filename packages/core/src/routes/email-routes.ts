import type { DocsObject } from "../http/operation-docs.js";
import { defineRoute } from "../http/route.js";
import { errorDocs, jsonAnswer } from "../openapi/answer-docs.js";
import type { EmailService } from "../services/email-service.js";
import type { IdempotencyService } from "../services/idempotency-service.js";
import {
  emailPageSchema,
  emailSchema,
  registerEmailResultSchema,
  sendEmailResultSchema,
} from "../services/sending/email-answers.js";
import { idParams } from "./id-params.js";
import { handleIdempotently } from "./idempotent-handler.js";

/** The `Idempotency-Key` request header of the sending routes (docs/idempotency.md). */
const idempotencyHeader: Record<string, DocsObject> = {
  "Idempotency-Key": {
    description:
      "Makes the request safe to retry: 1 to 256 printable ASCII characters, unique per request (a UUID, or your own id of the message). Within 24 hours, a request with the same key and the same body gets the first request's status and body back (with `Idempotent-Replayed: true`) and nothing is sent again; a concurrent repeat waits for the first answer (up to `sending.idempotencyWaitMs`, default 10 s, then `409`); the same key with another body is `422`. Keys are per organization. A request refused with a 4xx frees its key.",
    schema: {
      type: "string",
      minLength: 1,
      maxLength: 256,
      pattern: "^[\\x20-\\x7e]+$",
    },
    example: "order-1042-receipt",
  },
};

/**
 * The answers both sending routes add to their own: the plan's campaign limit (a new `campaignId`
 * creates its campaign) and the idempotency answers.
 */
const sendingErrors: Record<string, DocsObject> = {
  "403": errorDocs(
    "`campaignId` names a campaign that does not exist yet and creating it would exceed the plan's campaign limit.",
    {
      planLimit: "Campaign limit reached: your plan allows 3 active campaigns; archive one or upgrade",
    },
  ),
  "409": errorDocs(
    "A request with the same `Idempotency-Key` is still running after the wait; or it was cut off by a server crash (it may have sent: it is not sent again).",
    {
      inProgress: "A request with this Idempotency-Key is still in progress; retry after it finishes",
    },
  ),
  "422": errorDocs(
    "Every `to` recipient is on the organization's suppression list: nothing is sent, and the email is kept with status `suppressed` (docs/deliverability.md). Or the `Idempotency-Key` was already used with another body or route.",
    {
      suppressed:
        'Every "to" recipient is on the suppression list: ann@example.com (hard_bounce); nothing was sent (email 01960c3e-8a1b-7c2d-9e4f-5a6b7c8d9e0f)',
      reused:
        "This Idempotency-Key was already used with another request body (or route); use a new key for a new request",
    },
  ),
};

/**
 * `POST /api/send`, `POST /api/emails`, `GET /api/emails` and `GET /api/emails/:id`. The handler parses the body once
 * with the service method's schema; the routes call the method's `parsed` entry (an in-process
 * caller of the method itself gets the same checks).
 */
export function emailRoutes(emails: EmailService, idempotency: IdempotencyService, maxSendBodyBytes: number) {
  return [
    defineRoute({
      method: "POST",
      path: "/send",
      docs: {
        tags: ["Emails"],
        operationId: "sendEmail",
        headers: idempotencyHeader,
        summary: "Send a tracked email",
        description:
          "Sends an email through the instance's delivery provider, with tracking applied, in this order:\n1. The sender: when the domain of `from` is a verified sending domain of the organization, `from` is used as given (and the message is DKIM-signed); otherwise the sender becomes the same local part at `send.<platformDomain>` (keeping the display name) and `Reply-To` is set to the original address unless `replyTo` is given.\n2. Every trackable link of `htmlContent` (absolute `http:`/`https:` URLs without template placeholders such as `{{...}}`, and without a `data-mailpulse-notrack` attribute) is rewritten to its own tracking URL `{base}/api/t/c/<link_tracking_id>`, unless `tracking.clicks` is false.\n3. A 1x1 tracking pixel `{base}/api/t/o/<email_tracking_id>` is injected before `</body>`, unless `tracking.opens` is false.\n4. The email and its links are stored, the modified HTML is sent (with a plain-text part generated from it when `text` is absent, and an `X-MailPulse-Tracking-Id` header), the email is marked sent and the `EMAIL_SENT` webhook event is queued.\n\nRecipients on the organization's suppression list (`GET /api/suppressions`) are dropped first: a suppressed `cc` or `bcc` silently, a suppressed `to` as long as another `to` remains; the answer's `suppressedRecipients` names them. When every `to` is suppressed nothing is sent: the answer is `422` naming the addresses and their reasons, and the email is kept with status `suppressed`.\n\n`{base}` is the organization's verified custom tracking domain (`https://<domain>`) when it has one, otherwise the instance's `baseUrl`.\n\nWhen the provider fails, the email is kept with status `failed` and the answer is `500 {\"error\": \"Email delivery failed (email <emailId>)\"}`: `GET /api/emails/<emailId>` shows it with the provider's reason.",
        requestBody: {
          examples: {
            simple: {
              summary: "One recipient, in a campaign",
              value: {
                from: "Ann Lee <ann@acme.example>",
                to: "bob@example.com",
                subject: "Spring sale",
                htmlContent:
                  '<html><body><p>Hello! <a href="https://acme.example/sale">See the sale</a></p></body></html>',
                campaignId: "Spring sale",
                metadata: {
                  customerId: "c_42",
                },
              },
            },
          },
        },
        responses: {
          "200": {
            description:
              "Sent. The response describes the tracking applied. A repeat with the same `Idempotency-Key` gets the same answer with the header `Idempotent-Replayed: true`.",
            content: {
              "application/json": {
                schema: sendEmailResultSchema,
              },
            },
          },
          "400": errorDocs(
            "The body is missing, is not JSON or fails validation (an unknown field is named, never ignored); or `campaignId` names an archived campaign; or the `Idempotency-Key` is malformed.",
            {
              missing: "Request body is required: send a JSON object",
              invalidJson:
                'Invalid JSON in request body: Unexpected token \'}\', "{"name": }" is not valid JSON',
              invalidField: 'Invalid request body: "to[1]": "bob@" domain must not be empty',
              unknownField: 'Invalid request body: unknown field "attachment"',
              badIdempotencyKey: "Idempotency-Key must be 1 to 256 printable ASCII characters",
              archivedCampaign: 'Campaign "Spring sale" is archived and accepts no new emails',
            },
          ),
          ...sendingErrors,
          "500": errorDocs(
            "The delivery provider refused or failed to send the email (it is stored with status `failed`); or an unexpected server error (`Internal server error`).",
            { deliveryFailed: "Email delivery failed (email 01960c3e-8a1b-7c2d-9e4f-5a6b7c8d9e0f)" },
          ),
        },
      },
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
      docs: {
        tags: ["Emails"],
        operationId: "registerEmail",
        headers: idempotencyHeader,
        summary: "Register an email another system sends",
        description:
          "Registers an email that the caller sends itself (through its own mail system) and returns its HTML with tracking applied: every trackable link rewritten to its tracking URL (unless `tracking.clicks` is false) and the open pixel injected (unless `tracking.opens` is false), exactly as `POST /api/send` does. MailPulse sends nothing: the caller sends the returned `html` as the email's body.\n\nThe email is stored as sent from the moment of the call, so its opens and clicks are tracked and counted in campaign, global and contact statistics. No `EMAIL_SENT` webhook event is emitted for it (opens and clicks do emit `EMAIL_OPENED` and `EMAIL_CLICKED`).\n\nCompared with `POST /api/send`: `from` is optional and recorded as given (no sender rewriting); `text`, `replyTo`, `cc`, `bcc`, `attachments` and `headers` are not accepted: like any unknown field, they are answered 400 naming them.\n\nThe suppression list applies as on `POST /api/send`: suppressed `to` addresses are left out of the record and named in `suppressedRecipients` (do not send to them); when every `to` is suppressed the answer is `422` and the email is kept with status `suppressed`.",
        requestBody: {
          examples: {
            registered: {
              summary: "An email the caller sends through its own SMTP server",
              value: {
                from: "news@acme.example",
                to: ["bob@example.com"],
                subject: "Your March newsletter",
                htmlContent: '<html><body><a href="https://acme.example/march">Read it</a></body></html>',
                campaignId: "Newsletter",
                tracking: {
                  opens: true,
                  clicks: true,
                },
              },
            },
          },
        },
        responses: {
          "201": {
            description: "Registered. Send `html` as the email's HTML body.",
            content: {
              "application/json": {
                schema: registerEmailResultSchema,
                examples: {
                  registered: {
                    value: {
                      id: "01960c3e-8a1b-7c2d-9e4f-5a6b7c8d9e0f",
                      emailTrackingId: "3q2-7wEjR8WZ1rJYb1s1kQ",
                      html: '<html><body><a href="https://mail.example.com/api/t/c/Yv1k0qQ9S9ePjx3a2m5zUw">Read it</a><img src="https://mail.example.com/api/t/o/3q2-7wEjR8WZ1rJYb1s1kQ" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" /></body></html>',
                      links: [
                        {
                          originalUrl: "https://acme.example/march",
                          trackingId: "Yv1k0qQ9S9ePjx3a2m5zUw",
                          trackingUrl: "https://mail.example.com/api/t/c/Yv1k0qQ9S9ePjx3a2m5zUw",
                        },
                      ],
                      pixelUrl: "https://mail.example.com/api/t/o/3q2-7wEjR8WZ1rJYb1s1kQ",
                    },
                  },
                },
              },
            },
          },
          "400": errorDocs(
            "The body is missing, is not JSON or fails validation (an unknown field is named, never ignored); or `campaignId` names an archived campaign; or the `Idempotency-Key` is malformed.",
            {
              missing: "Request body is required: send a JSON object",
              invalidJson:
                'Invalid JSON in request body: Unexpected token \'}\', "{"name": }" is not valid JSON',
              invalidField: 'Invalid request body: "htmlContent": must not be empty',
              badIdempotencyKey: "Idempotency-Key must be 1 to 256 printable ASCII characters",
              archivedCampaign: 'Campaign "Newsletter" is archived and accepts no new emails',
            },
          ),
          ...sendingErrors,
        },
      },
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
      path: "/emails",
      docs: {
        tags: ["Emails"],
        operationId: "listEmails",
        summary: "List emails",
        description:
          "The organization's emails of every status, sent or registered, newest first (by creation time), each as `GET /api/emails/{id}` answers it. Filters combine: `campaignId`, `status`, `to` (emails with this `to` recipient) and a creation-time range `since` (inclusive) to `until` (exclusive). `nextCursor` is set when the page is full; pass it as `after`, with the same filters, for the next page. An email's events (opens, clicks, bounces...) are `GET /api/events?emailTrackingId=<emailTrackingId>`.",
        parameters: {
          after: { description: "The previous page's `nextCursor`." },
          limit: { description: "Emails per page (1 to 100, default 20)." },
          campaignId: { description: "Only emails of the campaign with this id." },
          status: {
            description:
              "Only emails with this status: `sending`, `sent`, `failed`, `unknown`, `suppressed` or `bounced`.",
          },
          to: { description: "Only emails with this `to` recipient (a bare address, any case)." },
          since: {
            description: "Only emails created at or after this ISO 8601 time (`2026-03-01T00:00:00Z`).",
          },
          until: { description: "Only emails created before this ISO 8601 time." },
        },
        responses: {
          "200": jsonAnswer("A page of emails.", emailPageSchema),
          "400": errorDocs("A query parameter is invalid.", {
            badStatus:
              'Invalid request query: "status": must be one of sending, sent, failed, unknown, suppressed, bounced',
            badLimit: 'Invalid request query: "limit": must be at most 100',
            badCursor:
              'Invalid request query: "after" is not a cursor MailPulse issued; use the one the previous page gave',
            badTime: 'Invalid request query: "since": must be an ISO 8601 time such as 2026-03-01T00:00:00Z',
          }),
        },
      },
      input: { from: "query", schema: emails.list.schema },
      handle: ({ organizationId, input }) => emails.list.parsed(organizationId, input),
    }),
    defineRoute({
      method: "GET",
      path: "/emails/:id",
      docs: {
        tags: ["Emails"],
        operationId: "getEmail",
        summary: "Read an email",
        description:
          "An email of the organization, sent (`POST /api/send`, whose answer carries its `emailId`) or registered (`POST /api/emails`), whatever became of it: `sending` while the provider has it, `sent`, `failed` with the provider's reason in `failureReason`, `unknown` when the server stopped while sending it (it may have been delivered; it is counted and tracked like a sent email), or `suppressed` when every `to` recipient was on the suppression list and nothing was sent (`failureReason` says which). `suppressedRecipients` lists the recipients dropped as suppressed. With its recipients, tags, metadata and counts of opens and clicks; its events (each open, click, bounce...) are `GET /api/events?emailTrackingId=<emailTrackingId>`, oldest first.",
        parameters: {
          id: {
            description:
              "MailPulse's id of the email (`emailId` of the send answer, `id` of the register answer).",
          },
        },
        responses: {
          "200": jsonAnswer("The email.", emailSchema),
          "400": errorDocs("The path is malformed.", {
            badEncoding: "Malformed percent-encoding in the URL path",
          }),
          "404": errorDocs("The organization has no email with this id.", { notFound: "Email not found" }),
        },
      },
      params: idParams,
      handle: ({ organizationId, params }) => emails.get(organizationId, params.id),
    }),
  ];
}
