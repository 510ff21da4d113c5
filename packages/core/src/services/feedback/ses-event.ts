import { z } from "zod";

/**
 * What an Amazon SES notification says, read from an SNS `Message`: SES feedback notifications
 * (`notificationType`) and event publishing (`eventType`) carry the same `bounce`, `complaint`
 * and `mail` objects (AWS SES developer guide, "Amazon SNS notification contents").
 */
export type SesEvent =
  | { kind: "bounce"; trackingId: string | null; sesMessageId: string | null; bounces: SesBounce[] }
  | {
      kind: "complaint";
      trackingId: string | null;
      sesMessageId: string | null;
      feedbackType: string;
      recipients: string[];
      occurredAt: Date | undefined;
    }
  | { kind: "other"; type: string };

/** One bounced recipient, judged per the rule in docs/deliverability.md. */
export interface SesBounce {
  recipient: string;
  /** `Permanent` -> hard; `Transient` and `Undetermined` -> soft. */
  bounceType: "hard" | "soft";
  status: string | null;
  diagnostic: string | null;
  occurredAt: Date | undefined;
}

const recipientSchema = z.object({
  emailAddress: z.string(),
  status: z.string().optional(),
  diagnosticCode: z.string().optional(),
});

const sesEventSchema = z.object({
  notificationType: z.string().optional(),
  eventType: z.string().optional(),
  bounce: z
    .object({
      bounceType: z.string(),
      bouncedRecipients: z.array(recipientSchema),
      timestamp: z.string().optional(),
    })
    .optional(),
  complaint: z
    .object({
      complainedRecipients: z.array(recipientSchema),
      complaintFeedbackType: z.string().optional(),
      timestamp: z.string().optional(),
    })
    .optional(),
  mail: z
    .object({
      messageId: z.string().optional(),
      headers: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
    })
    .optional(),
});

const trackingIdHeader = "x-mailpulse-tracking-id";

/** An address as SES writes it, possibly `Name <addr>`: the bare address. */
function bareAddress(written: string): string {
  const angled = /<([^<>]+)>\s*$/.exec(written);
  return (angled?.[1] ?? written).trim();
}

function dateOf(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Reads an SNS notification's `Message` as an SES event; `undefined` when it is not JSON or not
 * shaped like one (another service's notification on the topic). The email is named by the
 * `X-MailPulse-Tracking-Id` header among `mail.headers`, present only when the SES identity
 * includes original headers in notifications; else `trackingId` is null.
 */
export function readSesEvent(message: string): SesEvent | undefined {
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    return undefined;
  }
  const parsed = sesEventSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const event = parsed.data;
  const type = event.notificationType ?? event.eventType;
  if (type === undefined) return undefined;
  const trackingId =
    event.mail?.headers?.find((header) => header.name.toLowerCase() === trackingIdHeader)?.value.trim() ||
    null;
  const sesMessageId = event.mail?.messageId ?? null;
  if (type === "Bounce" && event.bounce) {
    const bounce = event.bounce;
    const occurredAt = dateOf(bounce.timestamp);
    // SES's `Undetermined` cannot say the address is gone: soft, so only the soft-bounce rule can
    // suppress it (docs/deliverability.md).
    const bounceType = bounce.bounceType === "Permanent" ? "hard" : "soft";
    return {
      kind: "bounce",
      trackingId,
      sesMessageId,
      bounces: bounce.bouncedRecipients.map((recipient) => ({
        recipient: bareAddress(recipient.emailAddress),
        bounceType,
        status: recipient.status?.trim() || null,
        diagnostic: recipient.diagnosticCode?.trim() || null,
        occurredAt,
      })),
    };
  }
  if (type === "Complaint" && event.complaint) {
    const complaint = event.complaint;
    return {
      kind: "complaint",
      trackingId,
      sesMessageId,
      // SES omits the type when the mailbox provider's report had none; an ARF report's default.
      feedbackType: complaint.complaintFeedbackType?.trim().toLowerCase() || "abuse",
      recipients: complaint.complainedRecipients.map((recipient) => bareAddress(recipient.emailAddress)),
      occurredAt: dateOf(complaint.timestamp),
    };
  }
  return { kind: "other", type };
}
