import { createWebhookEvent } from "../events/webhook-events.js";
import type { Logger } from "../logger.js";
import type { Clock } from "../ports/clock.js";
import type { Storage, TrackedEmail } from "../ports/storage.js";
import { type IpAddressRetention, retainedIp } from "./tracking/client-ip.js";
import type { TrackingEventWriter } from "./tracking/event-writer.js";

/** Request signals kept with an event. */
export interface TrackingSignals {
  ip?: string;
  userAgent?: string | null;
}

/** Opens and clicks coming back from mail clients. Never throws: recording is best effort. */
export interface TrackingService {
  /** Records an open for the pixel's tracking id; unknown ids record nothing. */
  recordOpen(trackingId: string, signals: TrackingSignals): Promise<void>;
  /**
   * The stored URL of the link (never one from the request), recording the click; `undefined`
   * for an unknown link. `record: false` looks up without recording (HEAD requests).
   */
  resolveClick(linkId: string, signals: TrackingSignals, record?: boolean): Promise<string | undefined>;
}

/** Options of {@link createTrackingService}. */
export interface TrackingServiceOptions {
  storage: Storage;
  clock: Clock;
  writer: TrackingEventWriter;
  ipAddresses: IpAddressRetention;
  logger: Logger;
}

/** Builds the {@link TrackingService}. */
export function createTrackingService(options: TrackingServiceOptions): TrackingService {
  const { storage, clock, writer, logger } = options;

  async function record(
    type: "open" | "click",
    email: TrackedEmail,
    signals: TrackingSignals,
    link?: { id: string; url: string },
  ): Promise<void> {
    if (email.status !== "sent") return;
    const occurredAt = clock.now();
    const ip = retainedIp(signals.ip, options.ipAddresses);
    const userAgent = signals.userAgent?.slice(0, 512) ?? null;
    const data = {
      emailId: email.id,
      emailTrackingId: email.trackingId,
      campaignId: email.campaignId,
      recipient: email.recipient,
      subject: email.subject,
      userAgent,
      ip,
      ...(link ? { url: link.url, linkTrackingId: link.id } : {}),
    };
    try {
      await writer.write(
        {
          type,
          organizationId: email.organizationId,
          emailId: email.id,
          campaignId: email.campaignId,
          linkId: link?.id ?? null,
          occurredAt,
          ip,
          userAgent,
        },
        createWebhookEvent(type === "open" ? "EMAIL_OPENED" : "EMAIL_CLICKED", occurredAt, data),
      );
    } catch (error) {
      // The mail client still gets its pixel or redirect; the operator gets the error.
      logger.error(`MailPulse: could not record ${type} for email ${email.id}`, error);
    }
  }

  return {
    async recordOpen(trackingId, signals) {
      try {
        const email = await storage.tracking.findEmail(trackingId);
        if (email) await record("open", email, signals);
      } catch (error) {
        logger.error("MailPulse: could not look up an open-tracking id", error);
      }
    },
    async resolveClick(linkId, signals, shouldRecord = true) {
      const link = await storage.tracking.findLink(linkId);
      if (!link) return undefined;
      if (shouldRecord) await record("click", link.email, signals, link);
      return link.url;
    },
  };
}
