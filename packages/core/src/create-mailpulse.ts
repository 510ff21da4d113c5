import { createDomainRecheckJob } from "./background/domain-recheck.js";
import { createTrackingWriter } from "./background/tracking-writer.js";
import { nodeDnsResolver } from "./dns/node-dns-resolver.js";
import { createHandler } from "./http/create-handler.js";
import { createDirectHandler } from "./http/direct-handler.js";
import { defaultBasePath, mountRoutes, normalizeBasePath } from "./http/mount-routes.js";
import { createRateLimiter } from "./http/rate-limit/create-rate-limiter.js";
import { defaultRateLimit } from "./http/rate-limit/rate-limit-options.js";
import type { MailPulseRoute } from "./http/route.js";
import { createRouter } from "./http/router.js";
import { consoleLogger } from "./logger.js";
import type { MailPulseHttp } from "./node/types.js";
import type { MailPulseOptions } from "./options.js";
import { assertValidOptions, warnAboutPlatformDomain } from "./options-validation.js";
import { systemClock } from "./ports/clock.js";
import { memoryProvider } from "./providers/memory-provider.js";
import { apiRoutes } from "./routes/api-routes.js";
import { createTrackingUrls } from "./routes/tracking-urls.js";
import { type ApiKeyService, createApiKeyService } from "./services/api-key-service.js";
import { type CampaignService, createCampaignService } from "./services/campaign-service.js";
import { createCampaignResolver } from "./services/campaigns/resolve-campaign.js";
import { type ContactService, createContactService } from "./services/contact-service.js";
import { resolveDomainHosts } from "./services/domains/domain-hosts.js";
import { createEmailService, type EmailService } from "./services/email-service.js";
import { createOrganizationService, type OrganizationService } from "./services/organization-service.js";
import { createSendingDomainService, type SendingDomainService } from "./services/sending-domain-service.js";
import type { ServiceDeps } from "./services/service-context.js";
import { createStatsService, type StatsService } from "./services/stats-service.js";
import { createTrackingLookups } from "./services/tracking/tracking-lookups.js";
import {
  createTrackingDomainService,
  type TrackingDomainService,
} from "./services/tracking-domain-service.js";
import { createTrackingService, type TrackingService } from "./services/tracking-service.js";
import { asyncDisposeSymbol } from "./util/async-dispose.js";
import { createResourceId } from "./util/ids.js";
import { createSecretBox } from "./util/secret-box.js";

/** Default request body limit: 1 MiB. */
export const defaultMaxBodyBytes = 1024 * 1024;

/** A MailPulse instance: in-process services plus the HTTP surface adapters mount. */
export interface MailPulse extends MailPulseHttp {
  organizations: OrganizationService;
  apiKeys: ApiKeyService;
  campaigns: CampaignService;
  /** Tracked sending: `send` (POST /api/send) and `register` (POST /api/emails). */
  emails: EmailService;
  /** What the tracking endpoints call: record opens, resolve and record clicks. */
  tracking: TrackingService;
  /** Campaign period statistics and organization-wide statistics (docs/statistics.md). */
  stats: StatsService;
  /** Contacts: the `to` recipients with their engagement and timeline. */
  contacts: ContactService;
  /** Sending domains: create, verify against DNS, delete; the operator's platform records. */
  sendingDomains: SendingDomainService;
  /** The organization's custom tracking domain. */
  trackingDomain: TrackingDomainService;
  /**
   * The route table the handler serves: every route with its path relative to `basePath`, its
   * schemas and its documentation. `createOpenApiDocument(mailpulse.routes)` describes the API
   * from it.
   */
  routes: readonly MailPulseRoute[];
  /**
   * Starts the background work: the periodic DNS re-check of verified sending domains
   * (`domains.recheckIntervalMs`). Says once when DKIM private keys are stored unencrypted (no
   * `encryptionKey`), and when the platform domain is `localhost` or an IP address. Idempotent; without it everything else works, and verified domains are
   * only re-checked when verify is called. Tracking hits need no start.
   */
  start(): Promise<void>;
  /**
   * Releases what the instance owns: stops the domain re-check job started by `start()` (waiting
   * for a re-check under way), writes every tracking hit still queued, then closes the
   * `mailProvider` passed in the options (its `close()`, e.g. nodemailer's SMTP pool; the default
   * in-memory provider holds nothing). It does not own, and leaves open, the `storage` (close it
   * after `stop()` resolves) and the servers the adapters run in (stop accepting requests before,
   * so no hit arrives after the queue is written). Idempotent: later calls return the first
   * call's promise.
   */
  stop(): Promise<void>;
  /** `await using mailpulse = createMailPulse(...)`: calls {@link MailPulse.stop} on scope exit. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Wires services, routes and the handler from the options. */
export function createMailPulse(options: MailPulseOptions): MailPulse {
  assertValidOptions(options);
  const logger = options.logger ?? consoleLogger;
  const clock = options.clock ?? systemClock;
  const deps: ServiceDeps = {
    storage: options.storage,
    clock,
    createId: options.createId ?? (() => createResourceId(clock.now().getTime())),
  };
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;

  const organizations = createOrganizationService(deps);
  const apiKeys = createApiKeyService(deps);
  const limits = options.limits ?? (() => ({}));
  const campaigns = createCampaignService(deps, {
    limits,
    detailEmailLimit: options.campaignDetailEmailLimit ?? 500,
    detailLinkLimit: options.campaignDetailLinkLimit ?? 500,
  });

  const trackingOptions = options.tracking ?? {};
  const trackingWriter = createTrackingWriter({
    record: (hits) => options.storage.tracking.recordEvents(hits),
    batchSize: trackingOptions.batchSize ?? 500,
    queueSize: trackingOptions.queueSize ?? 10_000,
  });
  const trackingLookups = createTrackingLookups(
    options.storage.tracking,
    trackingOptions.cacheSize ?? 50_000,
  );

  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const basePath = normalizeBasePath(options.basePath ?? defaultBasePath);
  const platformDomain = options.platformDomain ?? new URL(baseUrl).hostname;
  const mailProvider =
    options.mailProvider ??
    memoryProvider({
      log: (line) => logger.info(`${line} (no mail provider configured: nothing was delivered)`),
      // Nobody can read this provider's messages: keeping them would only grow the heap.
      keep: 0,
    });
  const secrets = createSecretBox(options.encryptionKey);
  const domainOptions = options.domains ?? {};
  const dns =
    domainOptions.dnsResolver ??
    nodeDnsResolver({ servers: domainOptions.dnsServers, timeoutMs: domainOptions.dnsTimeoutMs });
  const hosts = resolveDomainHosts(platformDomain, domainOptions);
  const sendingDomains = createSendingDomainService(deps, { dns, hosts, mailProvider, secrets, logger });
  const trackingDomain = createTrackingDomainService(deps, { dns, trackingHost: hosts.trackingHost });
  const recheckIntervalMs = domainOptions.recheckIntervalMs ?? 24 * 60 * 60 * 1000;
  const domainRecheck = createDomainRecheckJob({
    recheckDue: () => sendingDomains.recheckVerified(recheckIntervalMs),
    // Domains come due one by one as their last check ages: look often enough to catch them.
    pollMs: Math.max(1000, Math.min(recheckIntervalMs, 60 * 60 * 1000)),
    logger,
  });

  let started = false;

  const emails = createEmailService(deps, {
    mailProvider,
    resolveCampaign: createCampaignResolver(deps, limits),
    baseUrl,
    trackingUrls: createTrackingUrls(basePath),
    platformDomain,
    logger,
    openSecret: secrets.open,
    onSent: trackingLookups.remember,
  });
  const tracking = createTrackingService({
    lookups: trackingLookups,
    writer: trackingWriter,
    clock,
    ipAddresses: trackingOptions.ipAddresses ?? "truncated",
    acknowledge: trackingOptions.acknowledge ?? "after-commit",
    logger,
  });

  const stats = createStatsService(deps);
  const contacts = createContactService(deps);

  const rateLimit = options.rateLimit;
  const rateLimiter =
    rateLimit &&
    createRateLimiter({
      quota: {
        limit: rateLimit.limit ?? defaultRateLimit.limit,
        windowMs: rateLimit.windowMs ?? defaultRateLimit.windowMs,
      },
      store: rateLimit.store ?? "storage",
      backend: options.storage.rateLimitBackend,
      keyPrefix: "api",
      logger,
    });
  // Per IP and in memory: one process's view is enough to stop a flood of hits from one address.
  const trackingIpLimiter =
    rateLimit?.trackingPerIp &&
    createRateLimiter({
      quota: rateLimit.trackingPerIp,
      store: "memory",
      backend: undefined,
      keyPrefix: "tracking",
      logger,
    });

  const routes = apiRoutes(
    {
      emails,
      campaigns,
      stats,
      contacts,
      tracking,
      sendingDomains,
      trackingDomain,
      ...(trackingIpLimiter ? { trackingIpLimiter } : {}),
    },
    basePath,
  );
  const mounted = mountRoutes(routes, basePath);
  const handler = createHandler({
    routes: mounted,
    baseUrl,
    authenticate: apiKeys.authenticate,
    ...(rateLimiter ? { rateLimiter } : {}),
    maxBodyBytes,
    logger,
  });

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await domainRecheck.stop();
      await trackingWriter.drain();
      await options.mailProvider?.close?.();
    })();
    return stopped;
  };

  return {
    handler,
    handleDirect: createDirectHandler(createRouter(mounted), logger),
    basePath,
    maxBodyBytes,
    organizations,
    apiKeys,
    campaigns,
    emails,
    tracking,
    stats,
    contacts,
    sendingDomains,
    trackingDomain,
    routes,
    async start() {
      // A stopped instance stays stopped: its job would outlive the `stop()` that released it.
      if (stopped) return;
      if (!started) {
        if (!secrets.encrypts) {
          logger.info("No encryptionKey: DKIM private keys are stored unencrypted (docs/domains.md)");
        }
        warnAboutPlatformDomain(platformDomain, logger);
      }
      started = true;
      domainRecheck.start();
    },
    stop,
    [asyncDisposeSymbol]: stop,
  };
}
