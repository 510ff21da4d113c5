import { z } from "zod";
import { successSchema } from "../http/answer-schemas.js";
import { defineRoute } from "../http/route.js";
import { errorDocs, jsonAnswer } from "../openapi/answer-docs.js";
import type { SuppressionService } from "../services/suppression-service.js";
import {
  addSuppressionsResultSchema,
  suppressionPageSchema,
} from "../services/suppressions/suppression-answers.js";

const tags = ["Suppressions"];

/** `:address` of `DELETE /api/suppressions/:address`, percent-decoded by the router. */
const addressParams = z.object({ address: z.string().min(1).max(320) });

/** `/api/suppressions`: the organization's suppression list (docs/deliverability.md). */
export function suppressionRoutes(suppressions: SuppressionService) {
  return [
    defineRoute({
      method: "GET",
      path: "/suppressions",
      docs: {
        tags,
        operationId: "listSuppressions",
        summary: "List suppressed addresses",
        description:
          "The organization's suppression list in address order: addresses `POST /api/send` and `POST /api/emails` drop, with why. `nextCursor` (the last address) is set when the page is full; pass it as `after` for the next page.",
        parameters: {
          after: { description: "Start after this address: the previous page's `nextCursor`." },
          limit: { description: "Entries per page (1 to 1000, default 100)." },
          reason: { description: "Only `hard_bounce`, `complaint`, `unsubscribe` or `manual` entries." },
          address: { description: "Only this address (any case): answers whether it is suppressed." },
          addressPrefix: { description: "Only addresses starting with this (any case)." },
        },
        responses: {
          "200": jsonAnswer("A page of suppressed addresses.", suppressionPageSchema),
          "400": errorDocs("A query parameter is invalid.", {
            badReason:
              'Invalid request query: "reason": must be one of hard_bounce, complaint, unsubscribe, manual',
            badLimit: 'Invalid request query: "limit": must be at most 1000',
          }),
        },
      },
      input: { from: "query", schema: suppressions.list.schema },
      handle: ({ organizationId, input }) => suppressions.list.parsed(organizationId, input),
    }),
    defineRoute({
      method: "POST",
      path: "/suppressions",
      docs: {
        tags,
        operationId: "addSuppressions",
        summary: "Suppress addresses",
        description:
          "Adds up to 1,000 addresses to the suppression list with reason `manual`. An address already on the list keeps its first reason (a hard bounce stays a hard bounce) and only its `updatedAt` moves, so the call can be repeated safely: the answer is 200 whether or not anything was new, and says how many were.",
        requestBody: {
          examples: { manual: { value: { addresses: ["ann@example.com", "bob@example.com"] } } },
        },
        responses: {
          "200": jsonAnswer(
            "How many addresses were added and how many were already suppressed.",
            addSuppressionsResultSchema,
          ),
          "400": errorDocs("The body is invalid.", {
            badAddress: 'Invalid request body: "addresses[1]": "bob@" domain must not be empty',
            tooMany: 'Invalid request body: "addresses": must name at most 1000 addresses',
          }),
        },
      },
      input: { from: "body", schema: suppressions.add.schema },
      handle: ({ organizationId, input }) => suppressions.add.parsed(organizationId, input),
    }),
    defineRoute({
      method: "DELETE",
      path: "/suppressions/:address",
      docs: {
        tags,
        operationId: "deleteSuppression",
        summary: "Lift a suppression",
        description:
          "Removes the address from the suppression list (whatever its reason): sends reach it again. Percent-encode the address in the path (`ann%40example.com`, or `@` as is); any case matches.",
        parameters: {
          address: {
            description: "The suppressed address.",
            schema: { type: "string", maxLength: 320 },
          },
        },
        responses: {
          "200": jsonAnswer("Lifted.", successSchema),
          "404": errorDocs("The address is not on the organization's suppression list.", {
            notFound: "Suppression not found",
          }),
        },
      },
      params: addressParams,
      handle: async ({ organizationId, params }) => {
        await suppressions.remove(organizationId, params.address);
        return { success: true as const };
      },
    }),
  ];
}
