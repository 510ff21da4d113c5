import { z } from "zod";
import { dateTime } from "../validation/answer-fields.js";
import { suppressionReasons } from "./suppression-input.js";

/** `Suppression` in the OpenAPI document. */
export const suppressionSchema = z
  .strictObject({
    address: z.string().describe("The address, trimmed and lowercased."),
    reason: z
      .enum(suppressionReasons)
      .describe(
        "Why: `hard_bounce` (a permanent delivery failure), `complaint` (marked as spam), `unsubscribe`, `manual` (added through the API).",
      ),
    sourceEmailId: z
      .string()
      .nullable()
      .describe("The email whose bounce, complaint or unsubscribe caused it."),
    status: z.string().nullable().describe("A bounce's enhanced status code, e.g. `5.1.1`."),
    diagnostic: z.string().nullable().describe("The receiving server's words, at most 1,000 characters."),
    createdAt: dateTime.describe("When the address was first suppressed."),
    updatedAt: dateTime.describe("When it was last suppressed again (the first reason is kept)."),
  })
  .meta({ id: "Suppression" });

/** {@link suppressionSchema}'s type. */
export type Suppression = z.output<typeof suppressionSchema>;

/** `SuppressionPage` in the OpenAPI document. */
export const suppressionPageSchema = z
  .strictObject({
    data: z.array(suppressionSchema).describe("Entries in address order."),
    nextCursor: z
      .string()
      .nullable()
      .describe("The last address when the page is full; pass it as `after`. Null on the last page."),
  })
  .meta({ id: "SuppressionPage" });

/** {@link suppressionPageSchema}'s type. */
export type SuppressionPage = z.output<typeof suppressionPageSchema>;

/** `AddSuppressionsResult` in the OpenAPI document. */
export const addSuppressionsResultSchema = z
  .strictObject({
    added: z.int().min(0).describe("Addresses that were not suppressed before."),
    alreadySuppressed: z
      .int()
      .min(0)
      .describe("Addresses that were: they keep their first reason, and their `updatedAt` moves."),
  })
  .meta({ id: "AddSuppressionsResult" });

/** {@link addSuppressionsResultSchema}'s type. */
export type AddSuppressionsResult = z.output<typeof addSuppressionsResultSchema>;

/** `SuppressedRecipient` in the OpenAPI document: a recipient a send dropped. */
export const suppressedRecipientSchema = z
  .strictObject({
    kind: z.enum(["to", "cc", "bcc"]),
    address: z.string().describe("Lowercased."),
    reason: z.enum(suppressionReasons),
  })
  .meta({
    id: "SuppressedRecipient",
    description: "A recipient dropped because its address is on the organization's suppression list.",
  });

/** {@link suppressedRecipientSchema}'s type. */
export type SuppressedRecipient = z.output<typeof suppressedRecipientSchema>;
