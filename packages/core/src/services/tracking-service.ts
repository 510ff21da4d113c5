import type { QueuedHit, TrackingWriter } from "../background/tracking-writer.js";
import type { Logger } from "../logger.js";
import type { Clock } from "../ports/clock.js";
import type { TrackedEmail, TrackingHit } from "../ports/storage.js";
import { redirectUrl } from "../util/redirect-url.js";
import { sanitizeText } from "../util/sanitize-text.js";
import { type IpAddressRetention, retainedIp } from "./tracking/client-ip.js";
import { isTrackedStatus } from "./tracking/counted-status.js";
import type { TrackingLookups } from "./tracking/tracking-lookups.js";

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
   * The stored URL of the link (never one from the request) in its serialised, header-safe form
   * (`redirectUrl`), recording the click; `undefined`, and nothing recorded, for an unknown link or
   * one whose stored URL cannot be redirected to (rows written before URLs were serialised).
   * `record: false` looks up without recording (HEAD requests).
   */
  resolveClick(linkId: string, signals: TrackingSignals, record?: boolean): Promise<string | undefined>;
}

/** Options of {@link createTrackingService}. */
export interface TrackingServiceOptions {
  lookups: TrackingLookups;
  writer: TrackingWriter;
  clock: Clock;
  ipAddresses: IpAddressRetention;
  /** `after-commit`: resolve once the hit is committed. `immediately`: once it is queued. */
  acknowledge: "after-commit" | "immediately";
  logger: Logger;
}

/** Longest user agent kept; real ones are a few hundred characters. */
const maxUserAgentLength = 512;

/** Builds the {@link TrackingService}. */
export function createTrackingService(options: TrackingServiceOptions): TrackingService {
  const { lookups, writer, clock, logger } = options;

  function hitOf(
    type: "open" | "click",
    email: TrackedEmail,
    signals: TrackingSignals,
    link?: { id: string; url: string },
  ): TrackingHit {
    const occurredAt = clock.now();
    // `full` keeps the address as given (an in-process caller's or a trusted proxy's header).
    const retained = retainedIp(signals.ip, options.ipAddresses);
    const ip = retained === null ? null : sanitizeText(retained);
    const userAgent = signals.userAgent ? sanitizeText(signals.userAgent.slice(0, maxUserAgentLength)) : null;
    return {
      event: {
        type,
        organizationId: email.organizationId,
        emailId: email.id,
        campaignId: email.campaignId,
        linkId: link?.id ?? null,
        occurredAt,
        ip,
        userAgent,
      },
    };
  }

  async function record(
    type: "open" | "click",
    email: TrackedEmail,
    signals: TrackingSignals,
    link?: { id: string; url: string },
  ): Promise<void> {
    if (!isTrackedStatus(email.status)) return;
    const failed = (error: unknown) =>
      // The mail client still gets its pixel or redirect; the operator gets the error.
      logger.error(`MailPulse: could not record ${type} for email ${email.id}`, error);
    let queued: QueuedHit;
    try {
      queued = await writer.queue(hitOf(type, email, signals, link));
    } catch (error) {
      failed(error);
      return;
    }
    if (options.acknowledge === "immediately") {
      queued.committed.catch(failed);
      return;
    }
    await queued.committed.catch(failed);
  }

  return {
    async recordOpen(trackingId, signals) {
      let email: TrackedEmail | undefined;
      try {
        email = await lookups.email(trackingId);
      } catch (error) {
        logger.error("MailPulse: could not look up an open-tracking id", error);
        return;
      }
      if (email) await record("open", email, signals);
    },
    async resolveClick(linkId, signals, shouldRecord = true) {
      const link = await lookups.link(linkId);
      if (!link) return undefined;
      // A click counts only when it is answered with a redirect.
      const url = redirectUrl(link.url);
      if (url === undefined) return undefined;
      if (shouldRecord) await record("click", link.email, signals, link);
      return url;
    },
  };
}
