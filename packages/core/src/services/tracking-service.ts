import type { QueuedHit, TrackingWriter } from "../background/tracking-writer.js";
import type { Logger } from "../logger.js";
import type { ClientAddressResolver } from "../measurement/client-address.js";
import type { ClassificationOptions, HitSignals } from "../measurement/hit-verdict.js";
import type { Clock } from "../ports/clock.js";
import type { TrackedEmail, TrackingHit } from "../ports/storage.js";
import { createLruCache } from "../util/lru-cache.js";
import { redirectUrl } from "../util/redirect-url.js";
import { sanitizeText } from "../util/sanitize-text.js";
import { type IpAddressRetention, retainedIp } from "./tracking/client-ip.js";
import { isTrackedStatus } from "./tracking/counted-status.js";
import { judgeHit } from "./tracking/judge-hit.js";
import type { RecentHits } from "./tracking/recent-hits.js";
import type { TrackingLookups } from "./tracking/tracking-lookups.js";

/** Request signals kept with an event. */
export interface TrackingSignals {
  /**
   * The peer's address (the socket's, or the host framework's idea of the client's). The HTTP
   * routes pass the client's address, already resolved by the handler.
   */
  ip?: string;
  userAgent?: string | null;
  /**
   * The `X-Forwarded-For` header, believed as far as `tracking.trustProxy` says (the same rule as
   * the handler's), for in-process callers that hold the raw header.
   */
  forwardedFor?: string | null;
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
  /** Resolves once the verdict revisions started so far are stored (`stop()` waits for it). */
  revisionsSettled(): Promise<void>;
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
  /** The client's address from the socket's and the proxies' (the `trustProxy` setting). */
  clientAddress: ClientAddressResolver;
  /** Each message's recent hits, which the classifier weighs. */
  recentHits: RecentHits;
  /** Rules of the host's own, tried before the built-in ones. */
  classification: ClassificationOptions;
  /**
   * Stores the revised verdicts of an email's earlier hits, once a later hit revealed a pattern
   * in them (docs/measurement.md). Called after that hit is committed.
   */
  reviseEarlierHits: (organizationId: string, emailId: string) => Promise<unknown>;
}

/** Longest user agent kept; real ones are a few hundred characters. */
const maxUserAgentLength = 512;

/** Distinct user agents whose stored form is remembered (see `storedUserAgent`). */
const rememberedUserAgents = 1_000;

/** Builds the {@link TrackingService}. */
export function createTrackingService(options: TrackingServiceOptions): TrackingService {
  const { lookups, writer, clock, logger } = options;

  // A newsletter's hits carry a few hundred distinct user agents, each a new string per request.
  // Mapping each to one stored string sanitises it once, and the message's remembered hits then
  // share that string instead of keeping a copy each (up to 50 per message), and compare it by
  // reference in the classifier's patterns.
  const userAgents = createLruCache<string, string>(rememberedUserAgents);
  function storedUserAgent(raw: string): string {
    const truncated = raw.slice(0, maxUserAgentLength);
    let stored = userAgents.get(truncated);
    if (stored === undefined) {
      stored = sanitizeText(truncated);
      userAgents.set(truncated, stored);
    }
    return stored;
  }

  function hitOf(
    type: "open" | "click",
    email: TrackedEmail,
    signals: TrackingSignals,
    link?: { id: string; url: string },
  ): { hit: TrackingHit; revealsEarlier: boolean } {
    const occurredAt = clock.now();
    const at = occurredAt.getTime();
    const clientIp = options.clientAddress(signals.ip, signals.forwardedFor ?? null);
    const userAgent = signals.userAgent ? storedUserAgent(signals.userAgent) : null;
    const msSinceSent = email.sentAt ? Math.max(0, at - email.sentAt.getTime()) : null;
    // Judged on the full address; only then does the IP setting decide how much of it is kept.
    const hit: HitSignals = {
      type,
      method: "GET",
      userAgent,
      ip: clientIp ?? null,
      at,
      msSinceSent,
      linkId: link?.id ?? null,
    };
    const { verdict, revealsEarlier } = judgeHit(options.recentHits, email.id, hit, options.classification);
    // `full` keeps the address as given (an in-process caller's or a trusted proxy's header).
    const retained = retainedIp(clientIp, options.ipAddresses);
    const ip = retained === null ? null : sanitizeText(retained);
    const event = {
      type,
      organizationId: email.organizationId,
      emailId: email.id,
      campaignId: email.campaignId,
      linkId: link?.id ?? null,
      occurredAt,
      ip,
      userAgent,
      method: "GET" as const,
      msSinceSent,
      verdict,
    };
    return { hit: { event }, revealsEarlier };
  }

  // Revisions under way, one per email at most: a burst revealed by several hits is revised once
  // (each revision judges the email's whole stored history).
  const revising = new Map<string, Promise<void>>();
  function reviseAfter(committed: Promise<unknown>, email: TrackedEmail): void {
    if (revising.has(email.id)) return;
    const revision = committed
      .then(() => options.reviseEarlierHits(email.organizationId, email.id))
      .then(
        () => undefined,
        (error: unknown) =>
          logger.error(`MailPulse: could not revise the verdicts of email ${email.id}`, error),
      )
      .finally(() => revising.delete(email.id));
    revising.set(email.id, revision);
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
      const { hit, revealsEarlier } = hitOf(type, email, signals, link);
      queued = await writer.queue(hit);
      if (revealsEarlier) reviseAfter(queued.committed, email);
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
    async revisionsSettled() {
      while (revising.size > 0) await Promise.all(revising.values());
    },
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
