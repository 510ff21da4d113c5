import type { RateLimiter } from "../http/rate-limit/create-rate-limiter.js";
import type { AnyRoute } from "../http/route.js";
import type { CampaignService } from "../services/campaign-service.js";
import type { ContactService } from "../services/contact-service.js";
import type { DeliveryFeedbackService } from "../services/delivery-feedback-service.js";
import type { EmailService } from "../services/email-service.js";
import type { EventService } from "../services/event-service.js";
import type { IdempotencyService } from "../services/idempotency-service.js";
import type { InboundMailService } from "../services/inbound-mail-service.js";
import type { SendingDomainService } from "../services/sending-domain-service.js";
import type { SnsNotificationService } from "../services/sns-notification-service.js";
import type { StatsService } from "../services/stats-service.js";
import type { SuppressionService } from "../services/suppression-service.js";
import type { TrackingDomainService } from "../services/tracking-domain-service.js";
import type { TrackingService } from "../services/tracking-service.js";
import type { UnsubscribeService } from "../services/unsubscribe-service.js";
import type { WebhookService } from "../services/webhook-service.js";
import { campaignRoutes } from "./campaign-routes.js";
import { contactRoutes } from "./contact-routes.js";
import { domainRoutes } from "./domain-routes.js";
import { emailRoutes } from "./email-routes.js";
import { emailUnsubscribeRoutes } from "./email-unsubscribe-routes.js";
import { eventRoutes } from "./event-routes.js";
import { type HealthSources, healthRoutes } from "./health-routes.js";
import { inboundMessageRoutes } from "./inbound-message-routes.js";
import { openApiRoutes } from "./openapi-routes.js";
import { snsRoutes } from "./sns-routes.js";
import { statsRoutes } from "./stats-routes.js";
import { suppressionRoutes } from "./suppression-routes.js";
import { trackingRoutes } from "./tracking-routes.js";
import { unsubscribeRoutes } from "./unsubscribe-routes.js";
import { webhookRoutes } from "./webhook-routes.js";

/** The services the API's routes call. */
export interface ApiRouteServices {
  emails: EmailService;
  idempotency: IdempotencyService;
  campaigns: CampaignService;
  stats: StatsService;
  contacts: ContactService;
  tracking: TrackingService;
  sendingDomains: SendingDomainService;
  trackingDomain: TrackingDomainService;
  webhooks: WebhookService;
  events: EventService;
  suppressions: SuppressionService;
  /** What the one-click unsubscribe URL calls. */
  unsubscribe: UnsubscribeService;
  /** What the SNS route calls; undefined without `MailPulseOptions.sns` (the route answers 404). */
  sns?: SnsNotificationService;
  /** Bounces, complaints and unsubscribes (the host's unsubscribe route). */
  deliveryFeedback: DeliveryFeedbackService;
  /** The inbound log (`GET /api/inbound-messages`). */
  inbound: Pick<InboundMailService, "list">;
  /** What `GET /api/health` reads. */
  health: HealthSources;
  /** Counts tracking hits per client IP (429 past its quota); default none. */
  trackingIpLimiter?: RateLimiter;
}

/**
 * The API's one route table: every route, with its path relative to the base path, in the order
 * the OpenAPI document lists them. The handler serves it mounted under `basePath`, the instance
 * exposes it (`mailpulse.routes`), and `createOpenApiDocument` documents it (served at
 * `{basePath}/openapi.json`, the last route). `basePath` is where the table will be mounted.
 */
export function apiRoutes(
  services: ApiRouteServices,
  basePath: string,
  limits: { maxBodyBytes: number; maxSendBodyBytes: number },
): AnyRoute[] {
  const routes: AnyRoute[] = [
    ...emailRoutes(services.emails, services.idempotency, limits.maxSendBodyBytes),
    ...emailUnsubscribeRoutes(services.deliveryFeedback),
    ...campaignRoutes(services.campaigns),
    ...statsRoutes(services.stats),
    ...contactRoutes(services.contacts),
    ...trackingRoutes(services.tracking, services.trackingIpLimiter),
    ...domainRoutes(services.sendingDomains, services.trackingDomain),
    ...webhookRoutes(services.webhooks),
    ...eventRoutes(services.events),
    ...suppressionRoutes(services.suppressions),
    ...unsubscribeRoutes(services.unsubscribe),
    ...snsRoutes(services.sns, limits.maxBodyBytes),
    ...inboundMessageRoutes(services.inbound),
    ...healthRoutes(services.health),
  ];
  // Last: the document describes the whole table, itself included.
  routes.push(...openApiRoutes(() => routes, basePath));
  return routes;
}
