/**
 * The storage port: small domain-shaped stores, each method with its contract.
 *
 * Contracts shared by every store:
 * - Every read and write is scoped by organization id; a row of another organization is treated
 *   exactly like a missing row (`undefined` / `false`), so services answer 404 for both.
 * - Each method is atomic: it either writes everything it describes or nothing.
 * - Times are `Date`s in and out; storage keeps them as UTC epoch milliseconds.
 *
 * The Kysely implementation (`@mailpulse/core/kysely`) serves SQLite and PostgreSQL; the
 * contract suite in `@mailpulse/core/testing` checks any implementation.
 */
import type { EmailStore, SendingDomainStore, WebhookStore } from "./storage-emails.js";
import type { StatsStore } from "./storage-stats.js";
import type { TrackingStore } from "./storage-tracking.js";

export type * from "./storage-emails.js";
export type * from "./storage-stats.js";
export type * from "./storage-tracking.js";

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

/** A stored API key. The plaintext key is never stored, only its SHA-256 hash. */
export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  name: string | null;
  /** The first characters of the key (`mp_` + 6), to tell keys apart in a list. */
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** A campaign. `archivedAt` is set once archived; archived campaigns accept no new emails. */
export interface CampaignRecord {
  id: string;
  organizationId: string;
  name: string;
  createdAt: Date;
  archivedAt: Date | null;
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

/** API keys. */
export interface ApiKeyStore {
  /** Inserts a key record with the SHA-256 hex hash of its plaintext. */
  create(record: ApiKeyRecord, keyHash: string): Promise<void>;
  /** The organization id of the non-revoked key with this hash, or `undefined`. */
  findActiveByHash(keyHash: string): Promise<{ id: string; organizationId: string } | undefined>;
  /** Keys of an organization (revoked ones included), oldest first. */
  list(organizationId: string): Promise<ApiKeyRecord[]>;
  /**
   * Marks the organization's key revoked at `at` (a key revoked already keeps its first time).
   * Returns false when the organization has no such key. Idempotent.
   */
  revoke(organizationId: string, id: string, at: Date): Promise<boolean>;
}

/** Result of {@link CampaignStore.create}. */
export type CreateCampaignResult = "created" | "name_taken" | "limit_reached";

/** Campaigns. */
export interface CampaignStore {
  /**
   * Inserts the campaign unless its name is taken in the organization (archived campaigns keep
   * their name) or the organization already has `maxActive` non-archived campaigns. The check and
   * the insert are one transaction, so concurrent creations cannot pass the limit.
   */
  create(campaign: CampaignRecord, limits: { maxActive?: number }): Promise<CreateCampaignResult>;
  /** The campaign of this organization, or `undefined`. */
  get(organizationId: string, id: string): Promise<CampaignRecord | undefined>;
  /** The campaign of this organization with this exact name, or `undefined`. */
  findByName(organizationId: string, name: string): Promise<CampaignRecord | undefined>;
  /** Non-archived campaigns, newest first. */
  listActive(organizationId: string): Promise<CampaignRecord[]>;
  /** Sets `archivedAt` if not yet archived. Returns false when it was already archived or is missing. */
  archive(organizationId: string, id: string, at: Date): Promise<boolean>;
}

/** Everything MailPulse keeps. */
export interface Storage {
  organizations: OrganizationStore;
  apiKeys: ApiKeyStore;
  campaigns: CampaignStore;
  emails: EmailStore;
  tracking: TrackingStore;
  stats: StatsStore;
  webhooks: WebhookStore;
  sendingDomains: SendingDomainStore;
  /** Creates or upgrades the schema. Idempotent; safe to call on every start. */
  migrate(): Promise<void>;
  /** Closes connections the storage opened itself (a pool passed in by the host stays open). */
  close(): Promise<void>;
}
