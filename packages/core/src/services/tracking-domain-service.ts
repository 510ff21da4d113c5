import { MailPulseError, notFound } from "../errors.js";
import { DnsLookupError, type DnsResolver } from "../ports/dns-resolver.js";
import type {
  TrackingDomain,
  TrackingDomainSet,
  TrackingDomainVerification,
} from "./domains/domain-answers.js";
import { domainInputSchema } from "./domains/domain-input.js";
import { sameHostName } from "./domains/domain-name.js";
import type { ServiceDeps } from "./service-context.js";
import { type ValidatedMethod, validatedMethod } from "./validation/validated-method.js";

export type { TrackingDomainVerification };

/** `GET /api/organizations/domain`: the domain, its verification and the CNAME target to publish. */
export type TrackingDomainState = TrackingDomain;

/** The organization's custom tracking domain (one at most). */
export interface TrackingDomainService {
  /** The domain, its verification and the CNAME target to publish. */
  get(organizationId: string): Promise<TrackingDomainState>;
  /**
   * Sets the domain, resetting verification (new sends keep the base URL until it is verified).
   * VALIDATION_FAILED for a missing or malformed domain, BAD_REQUEST when another organization
   * uses it.
   */
  set: ValidatedMethod<[organizationId: string], typeof domainInputSchema, TrackingDomainSet>;
  /** Removes the domain: new sends use the base URL again. Idempotent. */
  remove(organizationId: string): Promise<void>;
  /**
   * Looks the CNAME up: verified when it points to `expectedCNAME` (case and trailing dot do not
   * matter). A mismatch or a DNS failure is not an error: `{verified: false, error}`. NOT_FOUND
   * when no domain is set.
   */
  verify(organizationId: string): Promise<TrackingDomainVerification>;
}

/** What the tracking-domain service needs beyond the common deps. */
export interface TrackingDomainServiceOptions {
  dns: DnsResolver;
  /** `expectedCNAME`. */
  trackingHost: string;
}

/** Builds the {@link TrackingDomainService}. */
export function createTrackingDomainService(
  { storage, clock }: ServiceDeps,
  { dns, trackingHost }: TrackingDomainServiceOptions,
): TrackingDomainService {
  async function whatDnsSays(domain: string): Promise<string | undefined> {
    try {
      const targets = await dns.resolveCname(domain);
      if (targets.some((target) => sameHostName(target, trackingHost))) return undefined;
      if (!targets.length) return `no CNAME record at ${domain}: add one pointing to ${trackingHost}`;
      return `found CNAME ${targets.join(", ")} at ${domain}, expected ${trackingHost}`;
    } catch (error) {
      if (error instanceof DnsLookupError) return error.message;
      throw error;
    }
  }

  return {
    async get(organizationId) {
      const custom = await storage.organizations.getCustomDomain(organizationId);
      return {
        customDomain: custom?.domain ?? null,
        domainVerified: Boolean(custom?.verifiedAt),
        domainVerifiedAt: custom?.verifiedAt?.toISOString() ?? null,
        expectedCNAME: trackingHost,
      };
    },
    set: validatedMethod(
      domainInputSchema,
      "trackingDomain.set",
      { leading: 1 },
      async (organizationId: string, { domain }) => {
        if (!(await storage.organizations.setCustomDomain(organizationId, domain))) {
          throw new MailPulseError("BAD_REQUEST", `${domain} is already used by another organization`);
        }
        return { customDomain: domain, domainVerified: false };
      },
    ),
    async remove(organizationId) {
      await storage.organizations.setCustomDomain(organizationId, null);
    },
    async verify(organizationId) {
      const custom = await storage.organizations.getCustomDomain(organizationId);
      if (!custom) throw notFound("Custom tracking domain");
      const error = await whatDnsSays(custom.domain);
      if (error) return { verified: false, error };
      const at = custom.verifiedAt ?? clock.now();
      if (!custom.verifiedAt) await storage.organizations.markCustomDomainVerified(organizationId, at);
      return { verified: true, domainVerifiedAt: at.toISOString() };
    },
  };
}
