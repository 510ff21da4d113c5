/** Sending domains: the domains an organization sends from, verified through DNS. */

/** A sending domain as the sender rule needs it. */
export interface VerifiedSendingDomain {
  domain: string;
  dkimSelector: string;
  /** As stored: PEM, or sealed by the `encryptionKey` (the service opens it). */
  dkimPrivateKey: string;
}

/** Sending-domain status: `pending` until every DNS record matched, then `verified`. */
export type SendingDomainStatus = "pending" | "verified" | "failed";

/** A sending domain row. */
export interface SendingDomainRecord extends VerifiedSendingDomain {
  id: string;
  organizationId: string;
  status: SendingDomainStatus;
  /** JSON text of the DNS records with their statuses. */
  records: string;
  /** The DKIM public key (base64 SubjectPublicKeyInfo), published by the platform's zone. */
  dkimPublicKey: string;
  createdAt: Date;
  verifiedAt: Date | null;
  /** When the records were last looked up, or null. */
  lastCheckedAt: Date | null;
  /** Re-checks of a verified domain that failed in a row (reset by a successful check). */
  failedChecks: number;
}

/** The outcome of a verification, saved by {@link SendingDomainStore.saveCheck}. */
export interface SendingDomainCheck {
  status: SendingDomainStatus;
  records: string;
  verifiedAt: Date | null;
  lastCheckedAt: Date;
  failedChecks: number;
}

/**
 * Result of {@link SendingDomainStore.create}: `exists` when the organization already has the
 * name, `limit` when it already has `limit` domains.
 */
export type CreateSendingDomainResult = "created" | "exists" | "limit";

/**
 * Result of {@link SendingDomainStore.saveCheck}: `missing` for an unknown or foreign id, `taken`
 * when the check would verify a domain another organization has verified (nothing is saved).
 */
export type SaveSendingDomainCheckResult = "saved" | "missing" | "taken";

/** Sending domains. A name is unique per organization; verified by one organization at most. */
export interface SendingDomainStore {
  /**
   * Inserts a domain unless the organization already has one with this name, or (when `limit` is
   * given) already has `limit` domains; concurrent creates of one organization cannot both pass it.
   */
  create(domain: SendingDomainRecord, limit?: number): Promise<CreateSendingDomainResult>;
  /** The organization's verified sending domain with this (lowercase) name, or `undefined`. */
  findVerified(organizationId: string, domain: string): Promise<VerifiedSendingDomain | undefined>;
  /**
   * The organization that has verified this (lowercase) name, or `undefined` when none has: the
   * inbound receiver accepts mail for `send.<domain>` of verified domains only. Across
   * organizations (a name is verified by one organization at most).
   */
  findVerifiedOwner(domain: string): Promise<string | undefined>;
  /** Whether an organization other than `organizationId` has verified this name. */
  isVerifiedElsewhere(organizationId: string, domain: string): Promise<boolean>;
  /**
   * At most `limit` of the organization's domains, oldest first (by creation time, then id),
   * after the domain at `after` when given.
   */
  listPage(
    organizationId: string,
    page: { limit: number; after?: { createdAt: number; id: string } },
  ): Promise<SendingDomainRecord[]>;
  /** The organization's domain with this id, or `undefined`. */
  get(organizationId: string, id: string): Promise<SendingDomainRecord | undefined>;
  /** The organization's domains, oldest first. */
  list(organizationId: string): Promise<SendingDomainRecord[]>;
  /** Every organization's domains, oldest first (the platform's DKIM records, re-checks). */
  listAll(): Promise<SendingDomainRecord[]>;
  /** Deletes the organization's domain; false when there was none. */
  delete(organizationId: string, id: string): Promise<boolean>;
  /**
   * Saves a verification outcome. Atomic with the "verified by one organization" rule: when
   * `check.status` is `verified` and another organization holds the name verified, nothing is
   * saved and the result is `taken`.
   */
  saveCheck(
    organizationId: string,
    id: string,
    check: SendingDomainCheck,
  ): Promise<SaveSendingDomainCheckResult>;
}
