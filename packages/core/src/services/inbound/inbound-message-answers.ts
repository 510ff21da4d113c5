import { z } from "zod";
import { dateTime } from "../validation/answer-fields.js";
import { inboundMessageKinds } from "./inbound-message-input.js";

/** `InboundMessage` in the OpenAPI document. */
export const inboundMessageSchema = z
  .strictObject({
    id: z.int().describe("Grows with each message received."),
    receivedAt: dateTime.describe("When the receiver accepted it."),
    envelopeFrom: z
      .string()
      .describe("The SMTP envelope sender (MAIL FROM); empty for a bounce's null sender."),
    envelopeTo: z.array(z.string()).describe("The accepted SMTP envelope recipients (RCPT TO)."),
    kind: z
      .enum(inboundMessageKinds)
      .describe(
        "What it was: `bounce`, `complaint`, `unsubscribe` (mail to a `List-Unsubscribe` mailto address), `auto-reply`, `read-receipt`, `human-reply` or `malformed`.",
      ),
    summary: z.string().describe("Why it was judged so, and what was recorded (at most 1,000 characters)."),
    emailId: z.string().nullable().describe("The sent email it was tied to, if any."),
    subject: z.string().nullable().describe("Its Subject, at most 300 characters."),
    messageId: z.string().nullable().describe("Its own Message-ID, at most 300 characters."),
  })
  .meta({ id: "InboundMessage" });

/** {@link inboundMessageSchema}'s type. */
export type InboundMessage = z.output<typeof inboundMessageSchema>;

/** `InboundMessagePage` in the OpenAPI document. */
export const inboundMessagePageSchema = z
  .strictObject({
    data: z.array(inboundMessageSchema).describe("Rows, newest first."),
    nextCursor: z
      .string()
      .nullable()
      .describe("The last row's id when the page is full; pass it as `before`. Null on the last page."),
  })
  .meta({ id: "InboundMessagePage" });

/** {@link inboundMessagePageSchema}'s type. */
export type InboundMessagePage = z.output<typeof inboundMessagePageSchema>;
