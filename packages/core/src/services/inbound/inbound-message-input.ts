import { z } from "zod";
import type { InboundMessageKind } from "../../ports/storage.js";
import { pageLimit } from "../validation/page-query.js";

/** Every kind an inbound log row can have. */
export const inboundMessageKinds = [
  "bounce",
  "complaint",
  "unsubscribe",
  "auto-reply",
  "read-receipt",
  "human-reply",
  "malformed",
] as const satisfies readonly InboundMessageKind[];

/** Rows per page of `GET /api/inbound-messages` when `limit` is not given. */
export const defaultInboundPageSize = 100;
/** The largest accepted `limit`. */
export const maxInboundPageSize = 1000;

/** What `inbound.list` takes (the query of `GET /api/inbound-messages`). */
export const inboundMessageListSchema = z.object({
  before: z.coerce
    .number<number>()
    .int("must be an integer")
    .min(1, "must be at least 1")
    .max(Number.MAX_SAFE_INTEGER, "is not a cursor MailPulse issued")
    .optional()
    .describe("Start before this row: the previous page's `nextCursor`."),
  limit: pageLimit(maxInboundPageSize, defaultInboundPageSize).describe("Page size."),
  kind: z
    .enum(inboundMessageKinds, `must be one of ${inboundMessageKinds.join(", ")}`)
    .optional()
    .describe("Only rows of this kind."),
});

/** What `inbound.list` takes: {@link inboundMessageListSchema}'s input. */
export type InboundMessageListInput = z.input<typeof inboundMessageListSchema>;
