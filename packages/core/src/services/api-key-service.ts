import { createHash, randomBytes } from "node:crypto";
import { notFound } from "../errors.js";
import type { ApiKeyRecord } from "../ports/storage.js";
import { type CreateApiKeyInput, createApiKeySchema } from "./api-keys/api-key-input.js";
import type { ServiceDeps } from "./service-context.js";
import { parseInput } from "./validation/parse-input.js";

/** The prefix of every MailPulse API key; makes leaked keys easy to find with secret scanners. */
export const apiKeyPrefix = "mp_";

/** A newly created key: `key` is the plaintext, shown once and never stored. */
export interface CreatedApiKey {
  apiKey: ApiKeyRecord;
  key: string;
}

/** API keys: created per organization, stored as SHA-256 hashes, revocable. */
export interface ApiKeyService {
  /** Creates a key for an existing organization (NOT_FOUND otherwise). */
  create(organizationId: string, input?: CreateApiKeyInput): Promise<CreatedApiKey>;
  /**
   * Revokes the organization's key; later requests with it get 401. NOT_FOUND when the
   * organization has no such key. Idempotent.
   */
  revoke(organizationId: string, id: string): Promise<void>;
  /** Keys of an organization, without their plaintext. */
  list(organizationId: string): Promise<ApiKeyRecord[]>;
  /** The organization id a valid, non-revoked plaintext key belongs to, or `undefined`. */
  authenticate(plaintextKey: string): Promise<string | undefined>;
}

/** SHA-256 hex of a plaintext key: what storage keeps and looks up. */
export function hashApiKey(plaintextKey: string): string {
  return createHash("sha256").update(plaintextKey, "utf8").digest("hex");
}

/** Builds the {@link ApiKeyService}. */
export function createApiKeyService({ storage, clock, createId }: ServiceDeps): ApiKeyService {
  return {
    async create(organizationId, input = {}) {
      const { name } = parseInput(createApiKeySchema, input, "apiKeys.create");
      if (!(await storage.organizations.get(organizationId))) throw notFound("Organization");
      // 256 random bits; the spec-free format is `mp_` + base64url so it is URL- and header-safe.
      const key = `${apiKeyPrefix}${randomBytes(32).toString("base64url")}`;
      const apiKey: ApiKeyRecord = {
        id: createId(),
        organizationId,
        name: name ?? null,
        prefix: key.slice(0, apiKeyPrefix.length + 6),
        createdAt: clock.now(),
        revokedAt: null,
      };
      await storage.apiKeys.create(apiKey, hashApiKey(key));
      return { apiKey, key };
    },
    async revoke(organizationId, id) {
      if (!(await storage.apiKeys.revoke(organizationId, id, clock.now()))) throw notFound("API key");
    },
    list: (organizationId) => storage.apiKeys.list(organizationId),
    async authenticate(plaintextKey) {
      // Hash-then-lookup: the comparison happens on a digest, so timing reveals nothing of the key.
      if (!plaintextKey.startsWith(apiKeyPrefix) || plaintextKey.length > 200) return undefined;
      const found = await storage.apiKeys.findActiveByHash(hashApiKey(plaintextKey));
      return found?.organizationId;
    },
  };
}
