import { defineRoute } from "../http/route.js";
import { errorDocs, jsonAnswer } from "../openapi/answer-docs.js";
import { inboundMessagePageSchema } from "../services/inbound/inbound-message-answers.js";
import type { InboundMailService } from "../services/inbound-mail-service.js";

const tags = ["Inbound messages"];

/** `/api/inbound-messages`: the organization's inbound log (docs/deliverability.md). */
export function inboundMessageRoutes(inbound: Pick<InboundMailService, "list">) {
  return [
    defineRoute({
      method: "GET",
      path: "/inbound-messages",
      docs: {
        tags,
        operationId: "listInboundMessages",
        summary: "List received bounces, complaints and replies",
        description:
          "What the inbound SMTP receiver took in for the organization, newest first: bounces, complaints, mailto unsubscribes, auto-replies, read receipts, people's replies and malformed messages, each with the envelope, its Subject and Message-ID, and what was concluded and recorded. No message body is kept. The log is bounded (30 days and 100,000 rows across organizations by default). `nextCursor` is set when the page is full; pass it as `before` for the next page.",
        parameters: {
          before: { description: "Start before this row: the previous page's `nextCursor`." },
          limit: { description: "Rows per page (1 to 1000, default 100)." },
          kind: {
            description:
              "Only `bounce`, `complaint`, `unsubscribe`, `auto-reply`, `read-receipt`, `human-reply` or `malformed` rows.",
          },
        },
        responses: {
          "200": jsonAnswer("A page of the inbound log.", inboundMessagePageSchema),
          "400": errorDocs("A query parameter is invalid.", {
            badKind:
              'Invalid request query: "kind": must be one of bounce, complaint, unsubscribe, auto-reply, read-receipt, human-reply, malformed',
            badLimit: 'Invalid request query: "limit": must be at most 1000',
          }),
        },
      },
      input: { from: "query", schema: inbound.list.schema },
      handle: ({ organizationId, input }) => inbound.list.parsed(organizationId, input),
    }),
  ];
}
