import { z } from "zod";
import { dateTime } from "../validation/answer-fields.js";

/** `DnsRecord` in the OpenAPI document. */
export const dnsRecordSchema = z
  .strictObject({
    type: z.enum(["MX", "TXT", "CNAME"]),
    name: z.string().describe("The host name to publish the record at."),
    value: z.string(),
    status: z.enum(["not_started", "verified", "failed"]),
    priority: z.int().describe("MX only.").optional(),
    error: z
      .string()
      .describe("When `failed`: what DNS answered, e.g. `no CNAME at mailpulse._domainkey.acme.com`.")
      .optional(),
  })
  .meta({ id: "DnsRecord" });

/** {@link dnsRecordSchema}'s type. */
export type DnsRecord = z.output<typeof dnsRecordSchema>;

/** `SendingDomain` in the OpenAPI document. */
export const sendingDomainSchema = z
  .strictObject({
    id: z.string(),
    domain: z.string(),
    // The storage port allows `failed` (SendingDomainStatus); MailPulse itself writes the other two.
    status: z.enum(["pending", "verified", "failed"]),
    records: z.array(dnsRecordSchema),
    createdAt: dateTime,
  })
  .meta({ id: "SendingDomain" });

/** {@link sendingDomainSchema}'s type. */
export type SendingDomain = z.output<typeof sendingDomainSchema>;

/** `SendingDomainList` in the OpenAPI document. */
export const sendingDomainListSchema = z
  .strictObject({
    domains: z.array(sendingDomainSchema),
  })
  .meta({ id: "SendingDomainList" });

/** {@link sendingDomainListSchema}'s type. */
export type SendingDomainList = z.output<typeof sendingDomainListSchema>;

/** `SendingDomainVerification` in the OpenAPI document: the domain, with the check's outcome. */
export const sendingDomainVerificationSchema = sendingDomainSchema
  .extend({
    verified: z.boolean(),
  })
  .meta({ id: "SendingDomainVerification" });

/** {@link sendingDomainVerificationSchema}'s type. */
export type SendingDomainVerification = z.output<typeof sendingDomainVerificationSchema>;

/** `TrackingDomain` in the OpenAPI document. */
export const trackingDomainSchema = z
  .strictObject({
    customDomain: z.string().nullable(),
    domainVerified: z.boolean(),
    domainVerifiedAt: dateTime.nullable(),
    expectedCNAME: z.string().describe("The CNAME target, `track.<platform domain>` by default."),
  })
  .meta({ id: "TrackingDomain" });

/** {@link trackingDomainSchema}'s type. */
export type TrackingDomain = z.output<typeof trackingDomainSchema>;

/** `TrackingDomainSet` in the OpenAPI document. */
export const trackingDomainSetSchema = z
  .strictObject({
    customDomain: z.string(),
    domainVerified: z.literal(false),
  })
  .meta({ id: "TrackingDomainSet" });

/** {@link trackingDomainSetSchema}'s type. */
export type TrackingDomainSet = z.output<typeof trackingDomainSetSchema>;

/** `TrackingDomainVerification` in the OpenAPI document. */
export const trackingDomainVerificationSchema = z
  .union([
    z.strictObject({
      verified: z.literal(true),
      domainVerifiedAt: dateTime,
    }),
    z.strictObject({
      verified: z.literal(false),
      error: z
        .string()
        .describe(
          "e.g. `no CNAME record at track.acme.com: add one pointing to track.<platform domain>`, `found CNAME other.example at track.acme.com, expected ...`",
        ),
    }),
  ])
  .meta({ id: "TrackingDomainVerification" });

/** {@link trackingDomainVerificationSchema}'s type. */
export type TrackingDomainVerification = z.output<typeof trackingDomainVerificationSchema>;
