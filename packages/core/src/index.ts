/**
 * `@mailpulse/core`: email tracking and sending as an embeddable library.
 *
 * ```ts
 * const mailpulse = createMailPulse({ storage, baseUrl: "https://mail.example.com" });
 * ```
 *
 * The services' types (inputs and results) are here; the storage port's stores and records are
 * on `@mailpulse/core/storage`, the Kysely implementation on `@mailpulse/core/kysely`, the Node
 * bridge on `@mailpulse/core/node`. The test kit and the contract suites are a package of their
 * own, `@mailpulse/testing`.
 */

export {
  type InboundListenOptions,
  type InboundReceiver,
  inboundListenDefaults,
} from "./background/inbound-smtp.js";
export {
  createMailPulse,
  defaultMaxBodyBytes,
  defaultMaxSendBodyBytes,
  type InboundMail,
  type MailPulse,
} from "./create-mailpulse.js";
export {
  errorStatus,
  isMailPulseError,
  MailPulseError,
  type MailPulseErrorCode,
  type MailPulseErrorOptions,
  type ValidationIssue,
} from "./errors.js";
export { unreachableHostReason } from "./http/base-url-check.js";
export type { MailPulseHandler, MailPulseRequestInfo } from "./http/create-handler.js";
export type { DocsObject, DocsValue, OperationDocs } from "./http/operation-docs.js";
export type {
  RateLimitOptions,
  RateLimitQuota,
  RateLimitStore,
} from "./http/rate-limit/rate-limit-options.js";
export type { MailPulseRoute, RouteInput } from "./http/route.js";
export { consoleLogger, type LogFields, type Logger, type StructuredLogger } from "./logger.js";
export {
  type AddressRangeRuleOptions,
  type AddressRanges,
  addressRangeRule,
  addressRanges,
} from "./measurement/address-ranges.js";
export { classifyHistory, classifyHit } from "./measurement/classify-hit.js";
export {
  type ClassificationOptions,
  type ClassificationRule,
  type EarlierHit,
  type HitSignals,
  type HitSource,
  type HitVerdict,
  hitSources,
  noMachineSignal,
} from "./measurement/hit-verdict.js";
export { appleRanges, type PublishedRange, securityGatewayRanges } from "./measurement/published-ranges.js";
export type { MailPulseHttp } from "./node/types.js";
export { createOpenApiDocument, type OpenApiDocumentOptions } from "./openapi/create-openapi-document.js";
export type {
  DeliverabilityOptions,
  DomainOptions,
  InboundOptions,
  MailPulseOptions,
  SendingOptions,
  TrackingOptions,
  WebhookOptions,
} from "./options.js";
export { type Clock, systemClock } from "./ports/clock.js";
export { DnsLookupError, type DnsResolver } from "./ports/dns-resolver.js";
export {
  type DkimKey,
  type MailAddress,
  type MailProvider,
  type MessageEnvelope,
  type OutgoingMessage,
  type RecipientRejection,
  RecipientsRejectedError,
  type SendResult,
} from "./ports/mail-provider.js";
export type { ApiKeyRecord, Organization, Storage } from "./ports/storage.js";
export {
  type CapturedMessage,
  type MemoryProvider,
  type MemoryProviderOptions,
  memoryProvider,
} from "./providers/memory-provider.js";
export { type SmtpProviderOptions, smtpProvider } from "./providers/smtp-provider.js";
export { classifyReturnedMail, returnedMailLimits } from "./returned-mail/classify-returned-mail.js";
export type {
  AttributionSource,
  AutoReplyVerdict,
  BounceType,
  BounceVerdict,
  ClassifyReturnedMailOptions,
  ComplaintVerdict,
  HumanReplyVerdict,
  MalformedVerdict,
  ReadReceiptVerdict,
  RecipientAction,
  RecipientOutcome,
  ReturnedMailAttribution,
  ReturnedMailKind,
  ReturnedMailVerdict,
} from "./returned-mail/returned-mail-verdict.js";
export type { ApiKeyService, CreatedApiKey } from "./services/api-key-service.js";
export type { CreateApiKeyInput } from "./services/api-keys/api-key-input.js";
export type { Campaign, CampaignDetail, CampaignService } from "./services/campaign-service.js";
export type { CreateCampaignInput } from "./services/campaigns/campaign-input.js";
export type {
  ContactDetail,
  ContactPage,
  ContactService,
  ContactSummary,
  ContactTimelineEvent,
} from "./services/contact-service.js";
export type { ContactListInput } from "./services/contacts/contact-list-input.js";
export type {
  BounceReport,
  BounceSource,
  ComplaintReport,
  DeliveryFeedbackService,
  FeedbackTarget,
  UnsubscribeReport,
  UnsubscribeSource,
} from "./services/delivery-feedback-service.js";
export type { DnsRecord, DnsRecordStatus } from "./services/domains/dns-records.js";
export type { DomainHostOptions } from "./services/domains/domain-hosts.js";
export type { DomainInput, VerifySendingDomainInput } from "./services/domains/domain-input.js";
export { normalizeDomainName } from "./services/domains/domain-name.js";
export type { EmailService, RegisterEmailResult, SendEmailResult } from "./services/email-service.js";
export {
  createRecipientToken,
  type RecipientReference,
  type RecipientTokenPurpose,
  readRecipientToken,
} from "./services/feedback/recipient-token.js";
export type { UnsubscribeRecipientInput } from "./services/feedback/unsubscribe-input.js";
export type {
  AcceptedInboundRecipient,
  InboundDelivery,
  InboundMailService,
  InboundMessage,
  InboundMessageListInput,
  InboundMessagePage,
  InboundReceipt,
  InboundRecipient,
} from "./services/inbound-mail-service.js";
export type {
  MeasurementService,
  ReclassifyEmailOptions,
  ReclassifySummary,
} from "./services/measurement-service.js";
export type { OrganizationService } from "./services/organization-service.js";
export type { CreateOrganizationInput } from "./services/organizations/organization-input.js";
export type { TrackedLinkResponse } from "./services/sending/build-tracked-email.js";
export type {
  EmailTrackingSwitches,
  RegisterEmailInput,
  SendEmailInput,
} from "./services/sending/send-input.js";
export type { FromAddressPolicy } from "./services/sending/sender-rule.js";
export type {
  PlatformDnsRecord,
  SendingDomain,
  SendingDomainService,
  SendingDomainVerification,
} from "./services/sending-domain-service.js";
export type { PlanLimits } from "./services/service-context.js";
export type { CampaignStatsInput } from "./services/stats/campaign-stats-input.js";
export type {
  CampaignPeriodStats,
  DailyActivity,
  GlobalStats,
  StatsService,
} from "./services/stats-service.js";
export type {
  AddSuppressionsResult,
  SuppressInput,
  Suppression,
  SuppressionPage,
  SuppressionService,
} from "./services/suppression-service.js";
export type {
  AddSuppressionsInput,
  SuppressionListInput,
} from "./services/suppressions/suppression-input.js";
export type { IpAddressRetention } from "./services/tracking/client-ip.js";
export type {
  TrackingDomainService,
  TrackingDomainState,
  TrackingDomainVerification,
} from "./services/tracking-domain-service.js";
export type { TrackingService, TrackingSignals } from "./services/tracking-service.js";
export { UnmigratedStorageError } from "./services/unmigrated-storage.js";
export type { ValidatedMethod } from "./services/validation/validated-method.js";
export type { JsonObject, JsonValue } from "./util/json.js";
export { createSecretBox, decodeEncryptionKey, type SecretBox } from "./util/secret-box.js";
export {
  type VerifyWebhookSignatureInput,
  verifyWebhookSignature,
  type WebhookRequestHeaders,
  WebhookVerificationError,
} from "./webhooks/verify-webhook-signature.js";
