/** Organizations: the tenants; every other row belongs to one. */

/** An organization: the owner of every other resource. */
export interface Organization {
  id: string;
  name: string;
  createdAt: Date;
}

/** The organization's custom tracking domain, when set. */
export interface CustomTrackingDomain {
  domain: string;
  verifiedAt: Date | null;
}

/** Organizations. */
export interface OrganizationStore {
  /** Inserts a new organization. */
  create(organization: Organization): Promise<void>;
  /** The organization, or `undefined`. */
  get(id: string): Promise<Organization | undefined>;
  /** All organizations, oldest first. */
  list(): Promise<Organization[]>;
  /** The custom tracking domain of the organization, or `undefined` when none is set. */
  getCustomDomain(id: string): Promise<CustomTrackingDomain | undefined>;
  /**
   * Sets (or with `null` clears) the custom tracking domain. Returns false when another
   * organization already uses the domain. Setting a domain resets its verification.
   */
  setCustomDomain(id: string, domain: string | null): Promise<boolean>;
  /** Marks the current custom domain verified at `at`. */
  markCustomDomainVerified(id: string, at: Date): Promise<void>;
}
