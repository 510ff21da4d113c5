import { z } from "zod";
import { errorBodySchema, successSchema } from "../http/answer-schemas.js";
import { errorResponse, jsonResponse } from "../http/json-response.js";
import type { DocsObject } from "../http/operation-docs.js";
import { readFormBody } from "../http/read-form-body.js";
import { defineRoute } from "../http/route.js";
import { errorDocs } from "../openapi/answer-docs.js";
import type { UnsubscribeService } from "../services/unsubscribe-service.js";
import {
  confirmationPage,
  invalidLinkPage,
  pageConfirmationField,
  pageHeaders,
  unsubscribedPage,
} from "./unsubscribe-pages.js";
import { unsubscribePath } from "./unsubscribe-urls.js";

/** A one-click body is one short field; a page's, one more. Anything near this is not a form of ours. */
const maxFormBytes = 16 * 1024;

// Any string: a token that does not read (too long, another alphabet) is the same 404 page as a
// forged one, never a JSON validation error in front of a person.
const tokenParams = z.object({ token: z.string() });

const tokenDocs = {
  token: {
    description:
      "The recipient's unsubscribe token: 45 lowercase base32 characters, signed with the instance's signing key (`createRecipientToken(..., \"unsubscribe\", key)`).",
  },
};

const htmlPage = (description: string, example: string): DocsObject => ({
  description,
  headers: {
    "Content-Security-Policy": {
      description: "`default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; ...`",
      required: true,
      schema: { type: "string" },
    },
    "Cache-Control": { description: "`no-store`", required: true, schema: { type: "string" } },
    "Referrer-Policy": { description: "`no-referrer`", required: true, schema: { type: "string" } },
  },
  content: { "text/html": { schema: { type: "string" }, example } },
});

function html(status: number, body: string): Response {
  return new Response(body, { status, headers: pageHeaders });
}

/**
 * The receiving side of one-click unsubscribe (RFC 8058, docs/deliverability.md), without an API
 * key: the token authenticates. `GET` only shows a page with one button (link scanners fetch every
 * URL in a message, so a GET never unsubscribes; nor does HEAD); `POST` unsubscribes, from a mail
 * client's one-click (`List-Unsubscribe=One-Click`) or from the page's button.
 */
export function unsubscribeRoutes(unsubscribe: UnsubscribeService) {
  return [
    defineRoute({
      method: "GET",
      path: unsubscribePath,
      auth: "none",
      params: tokenParams,
      docs: {
        tags: ["Unsubscribe"],
        operationId: "showUnsubscribePage",
        summary: "Unsubscribe confirmation page",
        description:
          "The page behind the `List-Unsubscribe` URL of a sent email, for a person who opens it in a browser: the recipient's address and one button, which POSTs back to this URL. Changes nothing: link scanners fetch every URL of a message, so neither GET nor HEAD unsubscribes. No JavaScript, no external resources. No API key: the signed token is the authority.",
        parameters: tokenDocs,
        responses: {
          "200": htmlPage("The confirmation page.", confirmationPage("ann@example.com")),
          "404": htmlPage(
            "A forged, altered or unknown token, or an email no longer stored: a page saying the link is not valid.",
            invalidLinkPage,
          ),
        },
      },
      handle: async ({ params }) => {
        const target = await unsubscribe.find(params.token);
        return target ? html(200, confirmationPage(target.recipient)) : html(404, invalidLinkPage);
      },
    }),
    defineRoute({
      method: "POST",
      path: unsubscribePath,
      auth: "none",
      params: tokenParams,
      docs: {
        tags: ["Unsubscribe"],
        operationId: "unsubscribe",
        summary: "Unsubscribe (RFC 8058 one-click, or the page's button)",
        description:
          "Unsubscribes the recipient the token names: the address goes on the organization's suppression list (reason `unsubscribe`) and `CONTACT_UNSUBSCRIBED` is emitted, with source `one-click`, or `page` when the body carries the confirmation page's `source=page`. A mail client's RFC 8058 POST (`List-Unsubscribe=One-Click`) is answered `{\"success\": true}`; the page's POST, a page saying it is done. Idempotent: repeating it answers the same. A form body (`application/x-www-form-urlencoded`, or `multipart/form-data` as some clients send it; none at all is read as URL-encoded), no cookies, no redirect, no CORS preflight (a simple request). No API key: the signed token is the authority.",
        parameters: tokenDocs,
        ownRequestBody: {
          required: false,
          content: {
            "application/x-www-form-urlencoded": {
              schema: {
                type: "object",
                properties: {
                  "List-Unsubscribe": { type: "string", enum: ["One-Click"] },
                  source: { type: "string", enum: ["page"] },
                },
              },
              examples: {
                oneClick: {
                  summary: "A mail client's one-click",
                  value: { "List-Unsubscribe": "One-Click" },
                },
                page: { summary: "The confirmation page's button", value: { source: "page" } },
              },
            },
            "multipart/form-data": {
              schema: {
                type: "object",
                properties: { "List-Unsubscribe": { type: "string", enum: ["One-Click"] } },
              },
            },
          },
        },
        responses: {
          "200": {
            description:
              'Unsubscribed (or already so): `{"success": true}` for a one-click POST, the "you are unsubscribed" page for the page\'s POST.',
            content: {
              "application/json": { schema: successSchema },
              "text/html": { schema: { type: "string" }, example: unsubscribedPage("ann@example.com") },
            },
          },
          "404": {
            description:
              "A forged, altered or unknown token, or an email no longer stored: nothing is recorded. JSON for a one-click POST, the not-valid page for the page's POST.",
            content: {
              "application/json": {
                schema: errorBodySchema,
                example: { error: "Unsubscribe link not found" },
              },
              "text/html": { schema: { type: "string" }, example: invalidLinkPage },
            },
          },
          "400": errorDocs("A multipart body that does not parse.", {
            malformed: "The multipart/form-data body does not parse",
          }),
          "413": errorDocs("A body over 16 KiB.", {
            tooLarge: "Request body exceeds the limit of 16384 bytes",
          }),
          "415": errorDocs("A body that is not a form.", {
            notForm:
              'Content-Type must be application/x-www-form-urlencoded or multipart/form-data (got "application/json")',
          }),
        },
      },
      handle: async ({ params, request }) => {
        const form = await readFormBody(request, maxFormBytes);
        // RFC 8058 asks for `List-Unsubscribe=One-Click`; a POST without it is taken as one-click
        // all the same (refusing it would only keep a person subscribed who asked not to be).
        const fromPage = form.get(pageConfirmationField.name) === pageConfirmationField.value;
        const target = await unsubscribe.unsubscribe(params.token, fromPage ? "page" : "one-click");
        if (!target) {
          return fromPage ? html(404, invalidLinkPage) : errorResponse(404, "Unsubscribe link not found");
        }
        return fromPage
          ? html(200, unsubscribedPage(target.recipient))
          : jsonResponse({ success: true }, 200, { "cache-control": "no-store" });
      },
    }),
  ];
}
