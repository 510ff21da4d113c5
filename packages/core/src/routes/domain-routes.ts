import { successSchema } from "../http/answer-schemas.js";
import { jsonResponse } from "../http/json-response.js";
import { defineRoute } from "../http/route.js";
import { errorDocs, jsonAnswer } from "../openapi/answer-docs.js";
import {
  sendingDomainListSchema,
  sendingDomainSchema,
  sendingDomainVerificationSchema,
  trackingDomainSchema,
  trackingDomainSetSchema,
  trackingDomainVerificationSchema,
} from "../services/domains/domain-answers.js";
import type { SendingDomainService } from "../services/sending-domain-service.js";
import type { TrackingDomainService } from "../services/tracking-domain-service.js";
import { idParams } from "./id-params.js";
import { nextPageHeaders, nextPageLinkHeader } from "./linked-page.js";

/** The 404 of the routes that name a sending domain by id (verify, delete). */
const sendingDomainNotFound = errorDocs(
  "No sending domain with this id in the organization (unknown, deleted, or another organization's).",
  { notFound: "Sending domain not found" },
);

/** `/sending-domains` and `/organizations/domain` (the custom tracking domain). */
export function domainRoutes(sendingDomains: SendingDomainService, trackingDomain: TrackingDomainService) {
  return [
    defineRoute({
      method: "GET",
      path: "/sending-domains",
      docs: {
        tags: ["Domains"],
        operationId: "listSendingDomains",
        summary: "List sending domains",
        description:
          "The organization's sending domains, oldest first, each with its three DNS records and their last verification status. Never the DKIM private key. Paged: `limit` domains (default 50, at most 200); when there are more, the `Link` header carries the next page's absolute URL (`<{baseUrl}/api/sending-domains?limit=50&cursor=...>; rel=\"next\"`, RFC 8288), absent on the last page. The body stays `{domains: [...]}`.",
        parameters: {
          limit: { description: "Domains per page." },
          cursor: {
            description:
              "Opaque position of the next page, as issued in the `Link` header. Follow the header's URL rather than building it.",
          },
        },
        responses: {
          "200": { ...jsonAnswer("The domains.", sendingDomainListSchema), headers: nextPageLinkHeader },
          "400": errorDocs("A query parameter is invalid.", {
            badLimit: 'Invalid request query: "limit": must be at most 200',
            badCursor:
              'Invalid request query: "cursor" is not a cursor MailPulse issued; use the one the previous page gave',
          }),
        },
      },
      input: { from: "query", schema: sendingDomains.page.schema },
      handle: async ({ organizationId, input, rawInput, publicUrl }) => {
        const page = await sendingDomains.page.parsed(organizationId, input);
        return jsonResponse(
          { domains: page.domains },
          200,
          nextPageHeaders({ cursor: page.nextCursor, publicUrl, rawInput, keep: ["limit"] }),
        );
      },
    }),
    defineRoute({
      method: "POST",
      path: "/sending-domains",
      docs: {
        tags: ["Domains"],
        operationId: "createSendingDomain",
        summary: "Add a sending domain",
        description:
          "Normalises the name (lower case, no trailing dot, IDN to punycode), generates a 2048-bit DKIM key for it, calls the mail provider's domain hook when it has one, and answers the domain `pending` with its MX, SPF (TXT) and DKIM (CNAME) records, all `not_started`. A name only pending in another organization can be added: whoever verifies first wins.",
        requestBody: {
          examples: {
            acme: {
              value: {
                domain: "acme.com",
              },
            },
          },
        },
        responses: {
          "201": jsonAnswer("Created.", sendingDomainSchema),
          "400": errorDocs(
            "The body is missing, is not JSON, the domain is malformed, or the mail provider refused it.",
            {
              missing: 'Invalid request body: "domain" is required',
              localhost: 'Invalid request body: "domain": must not be localhost',
              ip: 'Invalid request body: "domain": must be a domain name, not an IP address',
              provider: "The mail provider refused the domain: domain is on a blocklist",
            },
          ),
          "409": errorDocs(
            "The organization already has this domain or its most sending domains (`domains.maxPerOrganization`, default 50), or another organization has verified it.",
            {
              alreadyAdded: "Sending domain acme.com already added",
              verifiedElsewhere: "acme.com is already verified by another organization",
              limit: "An organization can have at most 50 sending domains: delete one before adding another",
            },
          ),
        },
      },
      input: { from: "body", schema: sendingDomains.create.schema },
      status: 201,
      handle: ({ organizationId, input }) => sendingDomains.create.parsed(organizationId, input),
    }),
    defineRoute({
      method: "POST",
      path: "/sending-domains/verify",
      docs: {
        tags: ["Domains"],
        operationId: "verifySendingDomain",
        summary: "Verify a sending domain",
        description:
          "Looks every record up in DNS (per-query timeout, 5 s by default) and saves each one's status: `verified`, or `failed` with an `error` saying what was found. The domain becomes `verified` when all three match. A verified domain whose records fail stays verified until three checks in a row failed (docs/domains.md).",
        requestBody: {
          examples: {
            verify: {
              value: {
                domainId: "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b",
              },
            },
          },
        },
        responses: {
          "200": jsonAnswer("The domain with its checked records.", sendingDomainVerificationSchema),
          "400": errorDocs("The body is missing, is not JSON, or has no `domainId`.", {
            missing: 'Invalid request body: "domainId" is required',
          }),
          "404": sendingDomainNotFound,
          "409": errorDocs("Another organization verified this domain first.", {
            verifiedElsewhere: "acme.com is already verified by another organization",
          }),
        },
      },
      input: { from: "body", schema: sendingDomains.verify.schema },
      handle: ({ organizationId, input }) => sendingDomains.verify.parsed(organizationId, input),
    }),
    defineRoute({
      method: "DELETE",
      path: "/sending-domains/:id",
      docs: {
        tags: ["Domains"],
        operationId: "deleteSendingDomain",
        summary: "Delete a sending domain",
        description:
          "Deletes the domain (and at the mail provider when it has a domain hook). Sends from it are rewritten to `send.<platform domain>` again.",
        parameters: {
          id: {
            description: "The sending domain id.",
          },
        },
        responses: {
          "200": jsonAnswer("Deleted.", successSchema),
          "400": errorDocs("The path is malformed.", {
            badEncoding: "Malformed percent-encoding in the URL path",
          }),
          "404": sendingDomainNotFound,
        },
      },
      params: idParams,
      handle: async ({ organizationId, params }) => {
        await sendingDomains.delete(organizationId, params.id);
        return { success: true };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/organizations/domain",
      docs: {
        tags: ["Domains"],
        operationId: "getTrackingDomain",
        summary: "Get the custom tracking domain",
        description:
          "The organization's custom tracking domain, whether it is verified, and the CNAME target it must point to.",
        responses: {
          "200": jsonAnswer("The tracking domain.", trackingDomainSchema),
        },
      },
      handle: ({ organizationId }) => trackingDomain.get(organizationId),
    }),
    defineRoute({
      method: "POST",
      path: "/organizations/domain",
      docs: {
        tags: ["Domains"],
        operationId: "setTrackingDomain",
        summary: "Set the custom tracking domain",
        description:
          "Sets (or replaces) the domain; verification starts over. New sends keep using the base URL until the domain is verified.",
        requestBody: {
          examples: {
            track: {
              value: {
                domain: "track.acme.com",
              },
            },
          },
        },
        responses: {
          "200": jsonAnswer("Set, not yet verified.", trackingDomainSetSchema),
          "400": errorDocs(
            "The body is missing, is not JSON, the domain is malformed, or another organization uses it.",
            {
              missing: 'Invalid request body: "domain" is required',
              inUse: "track.acme.com is already used by another organization",
            },
          ),
        },
      },
      input: { from: "body", schema: trackingDomain.set.schema },
      handle: ({ organizationId, input }) => trackingDomain.set.parsed(organizationId, input),
    }),
    defineRoute({
      method: "DELETE",
      path: "/organizations/domain",
      docs: {
        tags: ["Domains"],
        operationId: "deleteTrackingDomain",
        summary: "Remove the custom tracking domain",
        description:
          "Removes the domain: new sends use the base URL again; emails already sent keep their URLs. Idempotent.",
        responses: {
          "200": jsonAnswer("Removed.", successSchema),
        },
      },
      handle: async ({ organizationId }) => {
        await trackingDomain.remove(organizationId);
        return { success: true };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/organizations/domain/verify",
      docs: {
        tags: ["Domains"],
        operationId: "verifyTrackingDomain",
        summary: "Verify the custom tracking domain",
        description:
          "Looks the CNAME of the domain up. Verified when it points to `expectedCNAME` (case and trailing dot do not matter); then new tracking URLs start with `https://<domain>`. A mismatch or a DNS failure is not an error status: `verified: false` with what was found. Takes no body.",
        responses: {
          "200": jsonAnswer("The outcome.", trackingDomainVerificationSchema),
          "404": errorDocs("No custom tracking domain is set.", {
            notSet: "Custom tracking domain not found",
          }),
        },
      },
      handle: ({ organizationId }) => trackingDomain.verify(organizationId),
    }),
  ];
}
