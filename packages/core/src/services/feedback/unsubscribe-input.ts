import { z } from "zod";
import { suppressedAddressSchema } from "../suppressions/suppression-input.js";

/**
 * What `deliveryFeedback.unsubscribe` takes (the body of `POST /api/emails/:emailTrackingId/unsubscribe`):
 * the recipient to unsubscribe, default the email's first `to`.
 */
export const unsubscribeRecipientSchema = z
  .strictObject({
    recipient: suppressedAddressSchema
      .optional()
      .describe("A recipient of the email (any case); default its first `to` recipient."),
  })
  .meta({ id: "UnsubscribeRecipientRequest" });

/** What `deliveryFeedback.unsubscribe` takes: {@link unsubscribeRecipientSchema}'s input. */
export type UnsubscribeRecipientInput = z.input<typeof unsubscribeRecipientSchema>;
