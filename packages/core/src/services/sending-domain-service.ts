import { MailPulseError, notFound } from "../errors.js";
import type { Logger } from "../logger.js";
import type { DnsResolver } from "../ports/dns-resolver.js";
import type { MailProvider } from "../ports/mail-provider.js";
import type { SendingDomainRecord } from "../ports/storage.js";
import type { SecretBox } from "../util/secret-box.js";
import { applyCheck } from "./domains/apply-check.js";
import { dkimTxtValue, generateDkimKeyPair } from "./domains/dkim-key.js";
import { checkDnsRecord, type DnsRecord, sendingDomainRecords } from "./domains/dns-records.js";
import type { SendingDomain, SendingDomainVerification } from "./domains/domain-answers.js";
import type { DomainHosts } from "./domains/domain-hosts.js";
import { domainInputSchema, verifySendingDomainSchema } from "./domains/domain-input.js";
import { domainListSchema, encodeDomainCursor } from "./domains/domain-list-input.js";
import type { ServiceDeps } from "./service-context.js";
import { type ValidatedMethod, validatedMethod } from "./validation/validated-method.js";

export type { SendingDomain, SendingDomainVerification };

/** A record the platform operator publishes in its own zone (docs/domains.md). */
export interface PlatformDnsRecord {
  type: "TXT";
  name: string;
  value: string;
  /** The sending domain whose DKIM CNAME points here. */
  forDomain: string;
}

/** Sending domains of an organization: created, listed, verified against DNS, deleted. */
export interface SendingDomainService {
  /**
   * Adds a domain with a fresh 2048-bit DKIM key and its three records (`pending`, records
   * `not_started`), after the mail provider's `createDomain` hook when it has one.
   * VALIDATION_FAILED for a missing or malformed domain, CONFLICT when the organization already
   * has it or another organization has verified it, BAD_REQUEST when the provider refuses it.
   */
  create: ValidatedMethod<[organizationId: string], typeof domainInputSchema, SendingDomain>;
  /** The organization's domains, oldest first. */
  list(organizationId: string): Promise<SendingDomain[]>;
  /**
   * One page of the organization's domains, oldest first, and the cursor of the next page
   * (`null` on the last). VALIDATION_FAILED for a bad `limit` or a cursor MailPulse did not issue.
   */
  page: ValidatedMethod<
    [organizationId: string],
    typeof domainListSchema,
    { domains: SendingDomain[]; nextCursor: string | null }
  >;
  /** Deletes the domain (and at the provider, when it has `deleteDomain`); NOT_FOUND for unknown or foreign ids. */
  delete(organizationId: string, id: string): Promise<void>;
  /**
   * Looks every record up and saves each one's status; the domain is `verified` when all match
   * (see docs/domains.md for a verified domain whose records fail). NOT_FOUND for unknown or
   * foreign ids, VALIDATION_FAILED without `domainId`, CONFLICT when another organization
   * verified the name first.
   */
  verify: ValidatedMethod<
    [organizationId: string],
    typeof verifySendingDomainSchema,
    SendingDomainVerification
  >;
  /**
   * Re-checks every verified domain last checked `intervalMs` ago or more (the background job).
   * Returns how many were checked. A failure of one domain is logged and does not stop the others.
   */
  recheckVerified(intervalMs: number): Promise<number>;
  /** The TXT records the operator's zone must publish: each domain's DKIM public key. */
  platformRecords(): Promise<PlatformDnsRecord[]>;
}

/** What the sending-domain service needs beyond the common deps. */
export interface SendingDomainServiceOptions {
  dns: DnsResolver;
  hosts: DomainHosts;
  mailProvider: MailProvider;
  /** Seals DKIM private keys at rest. */
  secrets: SecretBox;
  logger: Logger;
  /** Sending domains an organization may have (`domains.maxPerOrganization`). Default 50. */
  maxDomains?: number;
}

/** Sending domains an organization may have unless `domains.maxPerOrganization` says otherwise. */
export const DEFAULT_MAX_SENDING_DOMAINS = 50;

function tooManyDomains(max: number): MailPulseError {
  return new MailPulseError(
    "CONFLICT",
    `An organization can have at most ${max} sending domains: delete one before adding another`,
  );
}

function toSendingDomain(record: SendingDomainRecord): SendingDomain {
  return {
    id: record.id,
    domain: record.domain,
    status: record.status,
    records: JSON.parse(record.records) as DnsRecord[],
    createdAt: record.createdAt.toISOString(),
  };
}

function providerError(error: unknown): MailPulseError {
  const message = error instanceof Error ? error.message : String(error);
  return new MailPulseError("BAD_REQUEST", `The mail provider refused the domain: ${message}`, {
    cause: error,
  });
}

/** Builds the {@link SendingDomainService}. */
export function createSendingDomainService(
  deps: ServiceDeps,
  options: SendingDomainServiceOptions,
): SendingDomainService {
  const { storage, clock, createId } = deps;
  const maxDomains = options.maxDomains ?? DEFAULT_MAX_SENDING_DOMAINS;
  const { dns, hosts, mailProvider, secrets, logger } = options;

  async function check(record: SendingDomainRecord) {
    const records = JSON.parse(record.records) as DnsRecord[];
    // In parallel: the answer comes within one resolver timeout even when DNS never answers.
    const checked = await Promise.all(records.map((dnsRecord) => checkDnsRecord(dnsRecord, dns)));
    const outcome = applyCheck(record, checked, clock.now());
    const saved = await storage.sendingDomains.saveCheck(record.organizationId, record.id, outcome);
    if (saved === "missing") throw notFound("Sending domain");
    if (saved === "taken") {
      throw new MailPulseError("CONFLICT", `${record.domain} is already verified by another organization`);
    }
    return { checked, outcome };
  }

  return {
    create: validatedMethod(
      domainInputSchema,
      "sendingDomains.create",
      { leading: 1 },
      async (organizationId: string, { domain }) => {
        if (await storage.sendingDomains.isVerifiedElsewhere(organizationId, domain)) {
          throw new MailPulseError("CONFLICT", `${domain} is already verified by another organization`);
        }
        const existing = await storage.sendingDomains.list(organizationId);
        if (existing.some((d) => d.domain === domain)) {
          throw new MailPulseError("CONFLICT", `Sending domain ${domain} already added`);
        }
        // Before the key is generated: each one costs about 125 ms of CPU (issue 31).
        if (existing.length >= maxDomains) throw tooManyDomains(maxDomains);

        const id = createId();
        const key = await generateDkimKeyPair();
        if (mailProvider.createDomain) {
          try {
            await mailProvider.createDomain({
              domain,
              dkim: { domainName: domain, keySelector: hosts.dkimSelector, privateKey: key.privateKey },
            });
          } catch (error) {
            throw providerError(error);
          }
        }
        const record: SendingDomainRecord = {
          id,
          organizationId,
          domain,
          status: "pending",
          records: JSON.stringify(sendingDomainRecords(domain, id, hosts)),
          dkimSelector: hosts.dkimSelector,
          dkimPrivateKey: secrets.seal(key.privateKey),
          dkimPublicKey: key.publicKey,
          createdAt: clock.now(),
          verifiedAt: null,
          lastCheckedAt: null,
          failedChecks: 0,
        };
        const created = await storage.sendingDomains.create(record, maxDomains);
        if (created === "exists") {
          // A concurrent request added it between the check and the insert.
          throw new MailPulseError("CONFLICT", `Sending domain ${domain} already added`);
        }
        // Concurrent requests passed the first check together; the store lets only the cap in.
        if (created === "limit") throw tooManyDomains(maxDomains);
        return toSendingDomain(record);
      },
    ),
    async list(organizationId) {
      return (await storage.sendingDomains.list(organizationId)).map(toSendingDomain);
    },
    page: validatedMethod(
      domainListSchema,
      "sendingDomains.page",
      { leading: 1 },
      async (organizationId: string, { limit, cursor }) => {
        // One more than asked: whether a next page exists, without a count.
        const records = await storage.sendingDomains.listPage(organizationId, {
          limit: limit + 1,
          ...(cursor && { after: cursor }),
        });
        const shown = records.slice(0, limit);
        const last = shown.at(-1);
        const nextCursor =
          records.length > limit && last
            ? encodeDomainCursor({ createdAt: last.createdAt.getTime(), id: last.id })
            : null;
        return { domains: shown.map(toSendingDomain), nextCursor };
      },
    ),
    async delete(organizationId, id) {
      const record = await storage.sendingDomains.get(organizationId, id);
      if (!record || !(await storage.sendingDomains.delete(organizationId, id))) {
        throw notFound("Sending domain");
      }
      if (mailProvider.deleteDomain) {
        // The domain is gone for MailPulse either way; a provider that kept it is worth a log line.
        await mailProvider.deleteDomain(record.domain).catch((error: unknown) => {
          logger.error(`mail provider could not delete domain ${record.domain}`, error);
        });
      }
    },
    verify: validatedMethod(
      verifySendingDomainSchema,
      "sendingDomains.verify",
      { leading: 1 },
      async (organizationId: string, { domainId }) => {
        const record = await storage.sendingDomains.get(organizationId, domainId);
        if (!record) throw notFound("Sending domain");
        const { checked, outcome } = await check(record);
        return {
          ...toSendingDomain({ ...record, ...outcome }),
          records: checked,
          verified: outcome.status === "verified",
        };
      },
    ),
    async recheckVerified(intervalMs) {
      const due = clock.now().getTime() - intervalMs;
      const domains = (await storage.sendingDomains.listAll()).filter(
        (domain) => domain.status === "verified" && (domain.lastCheckedAt?.getTime() ?? 0) <= due,
      );
      for (const domain of domains) {
        try {
          const { outcome } = await check(domain);
          if (outcome.status === "pending") {
            logger.info(
              `sending domain ${domain.domain} failed ${outcome.failedChecks} DNS checks in a row: back to pending`,
            );
          }
        } catch (error) {
          logger.error(`re-check of sending domain ${domain.domain} failed`, error);
        }
      }
      return domains.length;
    },
    async platformRecords() {
      const domains = await storage.sendingDomains.listAll();
      return domains.flatMap((domain) => {
        const cname = (JSON.parse(domain.records) as DnsRecord[]).find((r) => r.type === "CNAME");
        if (!cname || !domain.dkimPublicKey) return [];
        return [
          {
            type: "TXT" as const,
            name: cname.value,
            value: dkimTxtValue(domain.dkimPublicKey),
            forDomain: domain.domain,
          },
        ];
      });
    },
  };
}
