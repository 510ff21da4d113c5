import { createDomainRecheckJob } from "./background/domain-recheck.js";
import { createIdempotencyPurgeJob } from "./background/idempotency-purge.js";
import { createInboundLogPurgeJob } from "./background/inbound-log-purge.js";
import { type InboundListenOptions, type InboundReceiver, listenInbound } from "./background/inbound-smtp.js";
import { createJobRegistry } from "./background/job-registry.js";
import { createSendingReconciliationJob } from "./background/sending-reconciliation.js";
import { createTrackingWriter } from "./background/tracking-writer.js";
import { createWebhookDeliveryWorker } from "./background/webhook-delivery.js";
import { nodeDnsResolver } from "./dns/node-dns-resolver.js";
import { createMountPathCheck } from "./http/base-url-check.js";
import { createHandler } from "./http/create-handler.js";
import { createDirectHandler } from "./http/direct-handler.js";
import { defaultBasePath, mountRoutes, normalizeBasePath } from "./http/mount-routes.js";
import { createRateLimiter } from "./http/rate-limit/create-rate-limiter.js";
import { defaultRateLimit } from "./http/rate-limit/rate-limit-options.js";
import type { MailPulseRoute } from "./http/route.js";
import { createRouter } from "./http/router.js";
import { toLogger } from "./logger.js";
import { clientAddressResolver } from "./measurement/client-address.js";
import type { MailPulseHttp } from "./node/types.js";
import type { MailPulseOptions } from "./options.js";
import {
  assertValidOptions,
  warnAboutPlainHttpUnsubscribe,
  warnAboutPlatformDomain,
} from "./options-validation.js";
import { systemClock } from "./ports/clock.js";
import { memoryProvider } from "./providers/memory-provider.js";
import { apiRoutes } from "./routes/api-routes.js";
import { createTrackingUrls } from "./routes/tracking-urls.js";
import { createUnsubscribeUrl } from "./routes/unsubscribe-urls.js";
import { type ApiKeyService, createApiKeyService } from "./services/api-key-service.js";
import { type CampaignService, createCampaignService } from "./services/campaign-service.js";
import { createCampaignResolver } from "./services/campaigns/resolve-campaign.js";
import { type ContactService, createContactService } from "./services/contact-service.js";
import {
  createDeliveryFeedbackService,
  type DeliveryFeedbackService,
  defaultSoftBounceRule,
} from "./services/delivery-feedback-service.js";
import { resolveDomainHosts } from "./services/domains/domain-hosts.js";
import { createEmailService, type EmailService } from "./services/email-service.js";
import { createEventService, type EventService } from "./services/event-service.js";
import { createSigningKeySource, type SigningKeySource } from "./services/feedback/signing-key.js";
import { createIdempotencyService } from "./services/idempotency-service.js";
import { createInboundMailService, type InboundMailService } from "./services/inbound-mail-service.js";
import { createMeasurementService, type MeasurementService } from "./services/measurement-service.js";
import { createOrganizationService, type OrganizationService } from "./services/organization-service.js";
import { createSendingDomainService, type SendingDomainService } from "./services/sending-domain-service.js";
import type { ServiceDeps } from "./services/service-context.js";
import { createSnsNotificationService } from "./services/sns-notification-service.js";
import { createStatsService, type StatsService } from "./services/stats-service.js";
import { createSuppressionService, type SuppressionService } from "./services/suppression-service.js";
import { createRecentHits } from "./services/tracking/recent-hits.js";
import { createTrackingLookups } from "./services/tracking/tracking-lookups.js";
import {
  createTrackingDomainService,
  type TrackingDomainService,
} from "./services/tracking-domain-service.js";
import { createTrackingService, type TrackingService } from "./services/tracking-service.js";
import { UnmigratedStorageError, withUnmigratedHint } from "./services/unmigrated-storage.js";
import { createUnsubscribeService } from "./services/unsubscribe-service.js";
import { createWebhookService, type WebhookService } from "./services/webhook-service.js";
import { asyncDisposeSymbol } from "./util/async-dispose.js";
import { createResourceId } from "./util/ids.js";
import { createInFlight } from "./util/in-flight.js";
import { createSecretBox } from "./util/secret-box.js";
import { createEventDelivery } from "./webhooks/deliver-event.js";
import { createWebhookTransport } from "./webhooks/https-delivery.js";
import { defaultDisableAfterMs, defaultRetryDelaysMs } from "./webhooks/retry-schedule.js";
import { createWebhookUrlCheck } from "./webhooks/webhook-url-check.js";

/** Default request body limit: 1 MiB. */
export const defaultMaxBodyBytes = 1024 * 1024;
/** Default body limit of the sending routes: 20 MiB (5 MiB of HTML plus 10 MiB of attachments in base64). */
export const defaultMaxSendBodyBytes = 20 * 1024 * 1024;

/** A MailPulse instance: in-process services plus the HTTP surface adapters mount. */
export interface MailPulse extends MailPulseHttp {
  organizations: OrganizationService;
  apiKeys: ApiKeyService;
  campaigns: CampaignService;
  /** Tracked sending: `send` (POST /api/send) and `register` (POST /api/emails). */
  emails: EmailService;
  /** What the tracking endpoints call: record opens, resolve and record clicks. */
  tracking: TrackingService;
  /** Judges stored opens and clicks again (docs/measurement.md): `mailpulse reclassify` runs it. */
  measurement: MeasurementService;
  /** Campaign period statistics and organization-wide statistics (docs/statistics.md). */
  stats: StatsService;
  /** Contacts: the `to` recipients with their engagement and timeline. */
  contacts: ContactService;
  /** Sending domains: create, verify against DNS, delete; the operator's platform records. */
  sendingDomains: SendingDomainService;
  /** The organization's custom tracking domain. */
  trackingDomain: TrackingDomainService;
  /** Webhooks: CRUD, deliveries, test, secret rotation (docs/webhooks.md). */
  webhooks: WebhookService;
  /** The event log (`GET /api/events`): what webhooks deliver, for catching up. */
  events: EventService;
  /** The suppression list the send checks (docs/deliverability.md). */
  suppressions: SuppressionService;
  /** Bounces, complaints and unsubscribes recorded against sent emails (docs/deliverability.md). */
  deliveryFeedback: DeliveryFeedbackService;
  /** The key return paths and unsubscribe links are signed with (docs/deliverability.md). */
  signingKey: SigningKeySource;
  /** Mail that comes back to the return-path domains: the SMTP receiver and its log. */
  inbound: InboundMail;
  /**
   * The route table the handler serves: every route with its path relative to `basePath`, its
   * schemas and its documentation. `createOpenApiDocument(mailpulse.routes)` describes the API
   * from it.
   */
  routes: readonly MailPulseRoute[];
  /**
   * Starts the background work: the webhook delivery worker (and its purge of old deliveries),
   * the periodic DNS re-check of verified sending domains (`domains.recheckIntervalMs`), crash
   * reconciliation (emails left `sending` longer than `sending.staleAfterMs` become `unknown`; the
   * first pass is over when `start()` resolves), the hourly purge of expired idempotency keys and
   * the hourly purge of the inbound log (`inbound` options). The inbound SMTP receiver is started
   * by {@link InboundMail.listen}, not here.
   * Says once when secrets are stored unencrypted (no `encryptionKey`), when the platform
   * domain is `localhost` or an IP address, and when `baseUrl` is `http://` on a host that is not
   * loopback (one-click unsubscribe URLs want HTTPS, RFC 8058). Idempotent. Without it the API works, but webhooks are
   * only delivered by {@link MailPulse.deliverWebhooks}, verified domains only re-checked when
   * verify is called, crashed sends stay `sending` and expired idempotency keys stay stored (they
   * are ignored all the same). Tracking hits need no start. Never started by itself (a host
   * decides when workers run, docs/embedding.md): creating a webhook while it is not running logs
   * a line naming the fix.
   */
  start(): Promise<void>;
  /**
   * Claims and attempts one batch of the webhook deliveries due now; resolves with how many it
   * attempted. What `start()` runs in a loop; for tests (with a controlled clock) and for hosts
   * that schedule delivery themselves instead of calling `start()`.
   */
  deliverWebhooks(): Promise<number>;
  /**
   * Releases what the instance owns: closes the inbound SMTP receivers `inbound.listen()` started
   * (waiting for the messages being recorded), stops the jobs started by `start()` (waiting for a run under
   * way), waits for the sends and registrations under way (however they were called: a send whose
   * HTTP client hung up still finishes, and is stored as what it became), writes every tracking
   * hit still queued, then closes the
   * `mailProvider` passed in the options (its `close()`, e.g. nodemailer's SMTP pool; the default
   * in-memory provider holds nothing). It does not own, and leaves open, the `storage` (close it
   * after `stop()` resolves: `await storage.close()` checkpoints a SQLite file and ends a
   * PostgreSQL pool, whose idle connections otherwise hold a script up until they time out) and
   * the servers the adapters run in (stop accepting requests before, so no hit arrives after the
   * queue is written). Nothing MailPulse or the SQLite storage leaves behind keeps the process
   * alive: a one-off script on a SQLite file exits after `stop()` even without `storage.close()`. One step that fails (a provider whose
   * `close()` throws) does not skip the rest: everything is still released, then the promise
   * rejects with that error, or an `AggregateError` when several failed. Idempotent: later calls
   * return the first call's promise.
   */
  stop(): Promise<void>;
  /** `await using mailpulse = createMailPulse(...)`: calls {@link MailPulse.stop} on scope exit. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * `mailpulse.inbound`: the inbound mail service (`list` is `GET /api/inbound-messages`) and the
 * SMTP receiver a host starts beside its HTTP server (docs/operations.md).
 */
export interface InboundMail extends InboundMailService {
  /**
   * Starts an inbound SMTP receiver for the return-path domains (`send.<platformDomain>` and
   * `send.<domain>` of verified sending domains) on `port` (default 25) and `host` (default every
   * interface); resolves once it listens. Bounces, complaints and mailto unsubscribes it receives
   * are recorded, and every message is logged; it never relays. `mailpulse.stop()` closes it (and
   * waits for the messages being recorded); so does its own `close()`. Rejects when it cannot
   * listen, and after `stop()`.
   */
  listen(options?: InboundListenOptions): Promise<InboundReceiver>;
}

/** Wires services, routes and the handler from the options. */
export function createMailPulse(options: MailPulseOptions): MailPulse {
  assertValidOptions(options);
  const logger = toLogger(options.logger);
  const clock = options.clock ?? systemClock;
  const deps: ServiceDeps = {
    // In-process calls on a storage nobody migrated fail with the fix named, not "no such table".
    storage: withUnmigratedHint(options.storage),
    clock,
    createId: options.createId ?? (() => createResourceId(clock.now().getTime())),
  };
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  const maxSendBodyBytes = options.maxSendBodyBytes ?? defaultMaxSendBodyBytes;

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
    concurrency: options.storage.tracking.concurrentBatches ?? 1,
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
  const sendingDomains = createSendingDomainService(deps, {
    dns,
    hosts,
    mailProvider,
    secrets,
    logger,
    ...(options.domains?.maxPerOrganization !== undefined && {
      maxDomains: options.domains.maxPerOrganization,
    }),
  });
  const trackingDomain = createTrackingDomainService(deps, { dns, trackingHost: hosts.trackingHost });
  const recheckIntervalMs = domainOptions.recheckIntervalMs ?? 24 * 60 * 60 * 1000;
  const domainRecheck = createDomainRecheckJob({
    recheckDue: () => sendingDomains.recheckVerified(recheckIntervalMs),
    // Domains come due one by one as their last check ages: look often enough to catch them.
    pollMs: Math.max(1000, Math.min(recheckIntervalMs, 60 * 60 * 1000)),
    logger,
  });

  let started = false;
  // Background work starts only with start() (docs/embedding.md says why): until then a new
  // webhook's deliveries stay `pending`, which must not happen without a word.
  const warnWhileNotStarted = (webhookId: string): void => {
    if (started && !jobs.stopped) return;
    logger.info(
      `MailPulse: webhook ${webhookId} was created, but background work is not running ` +
        `(${started ? "mailpulse.stop() was called" : "mailpulse.start() was never called"}): its deliveries stay ` +
        "pending until `await mailpulse.start()` runs the delivery worker (or you call mailpulse.deliverWebhooks()).",
      { webhookId },
    );
  };

  const suppressions = createSuppressionService(deps);
  const deliveryFeedback = createDeliveryFeedbackService(deps, {
    suppressions,
    softBounceRule: {
      limit: options.deliverability?.softBounceLimit ?? defaultSoftBounceRule.limit,
      windowDays: options.deliverability?.softBounceWindowDays ?? defaultSoftBounceRule.windowDays,
    },
  });
  const signingKey = createSigningKeySource({
    signingSecret: options.signingSecret,
    encryptionKey: options.encryptionKey,
    instanceSecrets: options.storage.instanceSecrets,
    logger,
  });

  const emailsInFlight = createInFlight();
  const emails = createEmailService(deps, {
    mailProvider,
    resolveCampaign: createCampaignResolver(deps, limits),
    baseUrl,
    trackingUrls: createTrackingUrls(basePath),
    unsubscribeUrl: createUnsubscribeUrl(basePath),
    signingKey,
    deliveryFeedback,
    platformDomain,
    fromAddresses: options.sending?.fromAddresses,
    logger,
    openSecret: secrets.open,
    onSent: trackingLookups.remember,
    inFlight: emailsInFlight,
  });
  const sendingOptions = options.sending ?? {};
  const staleAfterMs = sendingOptions.staleAfterMs ?? 15 * 60 * 1000;
  const idempotency = createIdempotencyService(deps, {
    waitMs: sendingOptions.idempotencyWaitMs ?? 10_000,
    staleAfterMs,
  });
  const sendingReconciliation = createSendingReconciliationJob({
    emails: options.storage.emails,
    staleAfterMs,
    clock,
    logger,
  });
  const idempotencyPurge = createIdempotencyPurgeJob({
    keys: options.storage.idempotencyKeys,
    clock,
    logger,
  });
  const classification = { rules: trackingOptions.classificationRules ?? [] };
  // One rule for the client address, used by the handlers (the per-IP limit and what a hit stores)
  // and by the tracking service for in-process callers.
  const clientAddress = clientAddressResolver(trackingOptions.trustProxy ?? false);
  const measurement = createMeasurementService(deps, classification);
  const tracking = createTrackingService({
    lookups: trackingLookups,
    writer: trackingWriter,
    clock,
    ipAddresses: trackingOptions.ipAddresses ?? "truncated",
    acknowledge: trackingOptions.acknowledge ?? "after-commit",
    logger,
    clientAddress,
    // A tenth of the lookup cache: a burst of hits on one message lasts seconds, not hours.
    recentHits: createRecentHits({
      messages: Math.max(1_000, Math.ceil((trackingOptions.cacheSize ?? 50_000) / 10)),
    }),
    classification,
    reviseEarlierHits: (organizationId, emailId) =>
      measurement.reclassifyEmail(organizationId, emailId, { onlyToMachine: true }),
  });

  const stats = createStatsService(deps);
  const contacts = createContactService(deps);

  const webhookOptions = options.webhooks ?? {};
  const allowPrivateNetworks = webhookOptions.allowPrivateNetworks ?? false;
  const webhookSender =
    webhookOptions.sender ??
    createWebhookTransport({
      allowPrivateNetworks,
      timeoutMs: webhookOptions.timeoutMs,
      lookup: webhookOptions.lookup,
      ca: webhookOptions.ca,
    });
  const deliver = createEventDelivery({ sender: webhookSender, secrets, clock });
  const webhooks = createWebhookService(deps, {
    secrets,
    checkUrl: createWebhookUrlCheck({ allowPrivateNetworks, lookup: webhookOptions.lookup }),
    deliver,
    maxWebhooks: webhookOptions.maxPerOrganization ?? 20,
    rotationOverlapMs: 24 * 60 * 60 * 1000,
    onCreated: (webhook) => warnWhileNotStarted(webhook.id),
  });
  const events = createEventService(deps);
  const unsubscribe = createUnsubscribeService(deps, { deliveryFeedback, signingKey });
  const sns =
    options.sns && createSnsNotificationService(deps, { deliveryFeedback, logger, options: options.sns });
  const inboundMail = createInboundMailService(deps, {
    feedback: deliveryFeedback,
    signingKey: () => signingKey.key(),
    platformDomain,
  });
  const inboundOptions = options.inbound ?? {};
  const inboundLogPurge = createInboundLogPurgeJob({
    store: options.storage.inboundMessages,
    clock,
    logger,
    retentionMs: (inboundOptions.logRetentionDays ?? 30) * 24 * 60 * 60 * 1000,
    maxRows: inboundOptions.maxLogRows ?? 100_000,
  });
  const receivers = new Set<InboundReceiver>();
  const webhookWorker = createWebhookDeliveryWorker({
    storage: options.storage,
    deliver,
    clock,
    logger,
    policy: {
      retryDelaysMs: webhookOptions.retryDelaysMs ?? defaultRetryDelaysMs,
      disableAfterMs: defaultDisableAfterMs,
      random: Math.random,
    },
    batchSize: webhookOptions.batchSize ?? 20,
    maxPerWebhook: webhookOptions.concurrencyPerWebhook ?? 4,
    // Longer than an attempt may take, so a live worker never loses its lease mid-attempt.
    leaseMs: Math.max(60_000, (webhookOptions.timeoutMs ?? 10_000) * 3),
    pollIntervalMs: webhookOptions.pollIntervalMs ?? 1000,
    retentionMs: (webhookOptions.retentionDays ?? 30) * 24 * 60 * 60 * 1000,
  });
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
      idempotency,
      campaigns,
      stats,
      contacts,
      tracking,
      sendingDomains,
      trackingDomain,
      webhooks,
      events,
      suppressions,
      unsubscribe,
      ...(sns ? { sns } : {}),
      deliveryFeedback,
      inbound: inboundMail,
      health: {
        storage: options.storage,
        // Read at each request: `jobs` is built below, and start()/stop() change both.
        backgroundStarted: () => started && !jobs.stopped,
        trackingHitsQueued: () => trackingWriter.queued,
      },
      ...(trackingIpLimiter ? { trackingIpLimiter } : {}),
    },
    basePath,
    { maxBodyBytes, maxSendBodyBytes },
  );
  const mounted = mountRoutes(routes, basePath);
  // Bound once: the storage knows which of its driver's errors mean "never migrated".
  const storageIsUnmigrated = options.storage.isUnmigrated?.bind(options.storage);
  const isUnmigrated = storageIsUnmigrated
    ? (error: unknown) => error instanceof UnmigratedStorageError || storageIsUnmigrated(error)
    : undefined;
  const handler = createHandler({
    routes: mounted,
    baseUrl,
    authenticate: apiKeys.authenticate,
    ...(rateLimiter ? { rateLimiter } : {}),
    maxBodyBytes,
    logger,
    clientAddress,
    isUnmigrated,
  });

  const router = createRouter(mounted);

  // Listed in start order; stop() goes from the last to the first. So the periodic jobs stop
  // before anything else (no new run starts while the rest settles; they are independent of one
  // another), then the sends under way finish, then the hits still queued are written, then the
  // revisions those hits set off, and only then is what they use closed: the webhook sender
  // (after the worker), and the mail provider last (after every send).
  const jobs = createJobRegistry([
    { name: "mail provider", stop: () => options.mailProvider?.close?.() },
    { name: "webhook sender", stop: () => webhookSender.close?.() },
    { name: "tracking revisions", stop: () => tracking.revisionsSettled() },
    trackingWriter,
    { name: "sends in flight", stop: () => emailsInFlight.settled() },
    // Their first runs go on in the background: start() does not wait for DNS or webhook receivers.
    domainRecheck,
    webhookWorker,
    // Their first runs are awaited: once start() resolves, emails a crash left `sending` are
    // counted (as `unknown`) and expired idempotency keys are gone.
    sendingReconciliation,
    idempotencyPurge,
    inboundLogPurge,
    // Stopped first: no message is taken in after stop() began, and the ones being recorded are
    // stored before anything they use is released.
    {
      name: "inbound SMTP receivers",
      stop: () => Promise.all([...receivers].map((receiver) => receiver.close())).then(() => undefined),
    },
  ]);
  const stop = () => jobs.stop();

  return {
    handler,
    handleDirect: createDirectHandler(router, { logger, clientAddress, isUnmigrated }),
    servesPath: router.hasPath,
    checkMountPath: createMountPathCheck(baseUrl, basePath, logger),
    basePath,
    // What the Node bridge lets through: the largest limit of any route (each route checks its own).
    maxBodyBytes: Math.max(maxBodyBytes, maxSendBodyBytes),
    organizations,
    apiKeys,
    campaigns,
    emails,
    tracking,
    measurement,
    stats,
    contacts,
    sendingDomains,
    trackingDomain,
    webhooks,
    events,
    suppressions,
    deliveryFeedback,
    signingKey,
    inbound: {
      ...inboundMail,
      async listen(listenOptions = {}) {
        if (jobs.stopped)
          throw new Error("MailPulse: this instance is stopped; create another to receive mail");
        const receiver = await listenInbound(inboundMail, {
          ...listenOptions,
          defaultName: hosts.bounceHost,
          logger,
        });
        const tracked: InboundReceiver = {
          port: receiver.port,
          close: () => {
            receivers.delete(tracked);
            return receiver.close();
          },
        };
        receivers.add(tracked);
        // stop() may have begun while the server was binding: it missed this one, so close it now.
        if (jobs.stopped) {
          await tracked.close();
          throw new Error("MailPulse: this instance is stopped; create another to receive mail");
        }
        return tracked;
      },
    },
    routes,
    async start() {
      // A stopped instance stays stopped: its job would outlive the `stop()` that released it.
      if (jobs.stopped) return;
      if (!started) {
        if (!secrets.encrypts) {
          logger.info(
            "No encryptionKey: DKIM private keys and webhook secrets are stored unencrypted (docs/domains.md)",
          );
        }
        warnAboutPlatformDomain(platformDomain, logger, options.sending?.fromAddresses);
        warnAboutPlainHttpUnsubscribe(baseUrl, logger);
      }
      started = true;
      await jobs.start();
    },
    deliverWebhooks: () => webhookWorker.deliverBatch(),
    stop,
    [asyncDisposeSymbol]: stop,
  };
}
