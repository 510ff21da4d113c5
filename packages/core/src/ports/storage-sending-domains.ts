/** Sending domains: the domains an organization sends from, verified through DNS. */

/** A sending domain as the sender rule needs it. */
export interface VerifiedSendingDomain {
  domain: string;
  dkimSelector: string;
  dkimPrivateKey: string;
}

/** A sending domain row (the domains issue builds the API on it). */
export interface SendingDomainRecord extends VerifiedSendingDomain {
  id: string;
  organizationId: string;
  status: "pending" | "verified" | "failed";
  /** JSON text of the DNS records with their statuses. */
  records: string;
  createdAt: Date;
  verifiedAt: Date | null;
}

/** Sending domains. */
export interface SendingDomainStore {
  /** Inserts a domain. */
  create(domain: SendingDomainRecord): Promise<void>;
  /** The organization's verified sending domain with this (lowercase) name, or `undefined`. */
  findVerified(organizationId: string, domain: string): Promise<VerifiedSendingDomain | undefined>;
}
