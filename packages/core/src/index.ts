/**
 * `@mailpulse/core`: email tracking and sending as an embeddable library.
 *
 * ```ts
 * const mailpulse = createMailPulse({ storage, baseUrl: "https://mail.example.com" });
 * ```
 */
export { createMailPulse, defaultMaxBodyBytes, type MailPulse } from "./create-mailpulse.js";
export { errorStatus, isMailPulseError, MailPulseError, type MailPulseErrorCode } from "./errors.js";
export type { MailPulseHandler, RequestInfo } from "./http/create-handler.js";
export { consoleLogger, type Logger } from "./logger.js";
export type { MailPulseHttp } from "./node/types.js";
export type { MailPulseOptions } from "./options.js";
export { type Clock, systemClock } from "./ports/clock.js";
export type * from "./ports/mail-provider.js";
export type * from "./ports/storage.js";
export * from "./providers/index.js";
export type { ApiKeyService, CreatedApiKey } from "./services/api-key-service.js";
export type { Campaign, CampaignDetail, CampaignService } from "./services/campaign-service.js";
export type {
  ContactDetail,
  ContactPage,
  ContactService,
  ContactSummary,
  ContactTimelineEvent,
} from "./services/contact-service.js";
export type { ContactListInput } from "./services/contacts/contact-list-input.js";
export type { OrganizationService } from "./services/organization-service.js";
export type { PlanLimits } from "./services/service-context.js";
export type {
  CampaignPeriodStats,
  DailyActivity,
  GlobalStats,
  StatsService,
} from "./services/stats-service.js";
