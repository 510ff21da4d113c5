/** API keys, stored as SHA-256 hashes of their plaintext. */

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
