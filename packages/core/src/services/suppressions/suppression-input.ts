import { z } from "zod";
import type { SuppressionReason } from "../../ports/storage.js";
import { normalizeAddress } from "../../util/normalize-address.js";
import { checkAddress } from "../sending/addresses.js";
import { hasNoNul, nulMessage } from "../validation/no-nul.js";
import { pageLimit } from "../validation/page-query.js";

/** Every reason an address can be suppressed for. */
export const suppressionReasons = [
  "hard_bounce",
  "complaint",
  "unsubscribe",
  "manual",
] as const satisfies readonly SuppressionReason[];

/** Entries per page of `GET /api/suppressions` when `limit` is not given. */
export const defaultSuppressionPageSize = 100;
/** The largest accepted `limit`, and the most addresses one `POST /api/suppressions` takes. */
export const maxSuppressionBatch = 1000;

/**
 * One address: a bare `local@domain` checked as the send checks a recipient's (so whatever a send
 * accepts can be suppressed), coming out normalised: trimmed and lowercased.
 */
export const suppressedAddressSchema = z
  .string("must be an email address")
  .transform((value, context) => {
    const checked = checkAddress(value.trim());
    if (!checked.ok) {
      context.addIssue({ code: "custom", message: `"${value.slice(0, 100)}" ${checked.problem}` });
      return z.NEVER;
    }
    return normalizeAddress(checked.address);
  })
  .meta({
    description: "A bare email address, checked as a send's recipient is; stored trimmed and lowercased.",
    examples: ["ann@example.com"],
  });

/** What `suppressions.add` takes (the body of `POST /api/suppressions`). */
export const addSuppressionsSchema = z
  .strictObject({
    addresses: z
      .array(suppressedAddressSchema, "must be an array of email addresses")
      .min(1, "must name at least one address")
      .max(maxSuppressionBatch, `must name at most ${maxSuppressionBatch} addresses`)
      .describe(
        "Bare addresses (`ann@example.com`, no display name), stored trimmed and lowercased; duplicates count once.",
      ),
    reason: z
      .literal(
        "manual",
        'must be "manual" (the other reasons come from bounces, complaints and unsubscribes)',
      )
      .default("manual")
      .describe("Always `manual` for addresses added through the API."),
  })
  .meta({ id: "AddSuppressionsRequest" });

/** What `suppressions.add` takes: {@link addSuppressionsSchema}'s input. */
export type AddSuppressionsInput = z.input<typeof addSuppressionsSchema>;

/** A query parameter naming an address or its start: bounded, and without NUL (PostgreSQL refuses it). */
const addressQuery = () =>
  z
    .string()
    .min(1, "must not be empty")
    .max(320, "must be at most 320 characters")
    .refine(hasNoNul, nulMessage);

/** What `suppressions.list` takes (the query of `GET /api/suppressions`). */
export const suppressionListSchema = z.object({
  after: addressQuery().optional().describe("Start after this address: the previous page's `nextCursor`."),
  limit: pageLimit(maxSuppressionBatch, defaultSuppressionPageSize).describe("Page size."),
  reason: z
    .enum(suppressionReasons, `must be one of ${suppressionReasons.join(", ")}`)
    .optional()
    .describe("Only entries with this reason."),
  address: addressQuery()
    .optional()
    .describe("Only this address (compared trimmed and lowercased): is it suppressed?"),
  addressPrefix: addressQuery()
    .optional()
    .describe("Only addresses starting with this (compared lowercased), e.g. `ann`."),
});

/** What `suppressions.list` takes: {@link suppressionListSchema}'s input. */
export type SuppressionListInput = z.input<typeof suppressionListSchema>;

/** What the bounce, complaint and unsubscribe intake passes to `suppressions.suppress`. */
export interface SuppressInput {
  address: string;
  reason: SuppressionReason;
  sourceEmailId?: string | null;
  /** An enhanced status code such as `5.1.1`. */
  status?: string | null;
  /** The receiving server's words; cut to {@link maxDiagnosticLength} characters. */
  diagnostic?: string | null;
}

/** The longest diagnostic kept: a bounce's `Diagnostic-Code` is a line, not a message body. */
export const maxDiagnosticLength = 1000;
