import { type Kysely, Migrator } from "kysely";
import type { RateLimitBackend, Storage } from "../ports/storage.js";
import type { MailPulseDialect } from "./dialect.js";
import { createMigrationProvider, migrationTableNames } from "./migration-provider.js";
import type { MailPulseDatabase } from "./schema.js";
import { createApiKeyStore } from "./stores/api-key-store.js";
import { createCampaignStore } from "./stores/campaign-store.js";
import { createDeliveryFeedbackStore } from "./stores/delivery-feedback-store.js";
import { createDeliveryStore } from "./stores/delivery-store.js";
import { createEmailStore } from "./stores/email-store.js";
import { createEventStore } from "./stores/event-store.js";
import { createIdempotencyKeyStore } from "./stores/idempotency-key-store.js";
import { createInboundMessageStore } from "./stores/inbound-message-store.js";
import { createInstanceSecretStore } from "./stores/instance-secret-store.js";
import { createOrganizationStore } from "./stores/organization-store.js";
import { createSendingDomainStore } from "./stores/sending-domain-store.js";
import { createStatsStore } from "./stores/stats-store.js";
import { createSuppressionStore } from "./stores/suppression-store.js";
import { createTrackingStore } from "./stores/tracking-store.js";
import { createVerdictStore } from "./stores/verdict-store.js";
import { createWebhookStore } from "./stores/webhook-store.js";

/** Options of {@link createKyselyStorage}. */
export interface KyselyStorageOptions {
  /** A Kysely instance over the MailPulse tables, on the database `dialect` describes. */
  db: Kysely<MailPulseDatabase>;
  /**
   * What differs on this database, hit writer included: `sqliteMailPulseDialect(...)` from
   * `@mailpulse/storage-sqlite`, `postgresMailPulseDialect(...)` from `@mailpulse/storage-postgres`,
   * or your own {@link MailPulseDialect}.
   */
  dialect: MailPulseDialect;
  /**
   * Whether `close()` destroys `db`. True when the storage package created the connection,
   * false when the host passed its own pool (the host closes it). Default true.
   */
  ownsConnection?: boolean;
  /**
   * A database schema (PostgreSQL) that holds the tables, created by `migrate()` when missing.
   * Default: the connection's current schema.
   */
  schema?: string;
  /** The raw connection for the rate limit's counters (see `Storage.rateLimitBackend`). */
  rateLimitBackend?: RateLimitBackend;
}

/**
 * The one Kysely implementation of {@link Storage}; storage packages supply the connection and
 * the {@link MailPulseDialect}. Builds the dialect's hit writer at once, so a writer missing what
 * it needs fails here rather than at the first tracking hit.
 */
export function createKyselyStorage(options: KyselyStorageOptions): Storage {
  const { dialect, schema } = options;
  const db = schema ? options.db.withSchema(schema) : options.db;
  return {
    organizations: createOrganizationStore(db, dialect),
    apiKeys: createApiKeyStore(db),
    campaigns: createCampaignStore(db, dialect),
    emails: createEmailStore(db, dialect, schema),
    tracking: createTrackingStore(db, dialect, dialect.createHitRecorder(db, { schema })),
    stats: createStatsStore(db),
    webhooks: createWebhookStore(db, dialect),
    deliveries: createDeliveryStore(db, dialect),
    events: createEventStore(db),
    sendingDomains: createSendingDomainStore(db, dialect),
    idempotencyKeys: createIdempotencyKeyStore(db),
    ...(options.rateLimitBackend ? { rateLimitBackend: options.rateLimitBackend } : {}),
    verdicts: createVerdictStore(db, dialect),
    suppressions: createSuppressionStore(db),
    deliveryFeedback: createDeliveryFeedbackStore(db, dialect, schema),
    instanceSecrets: createInstanceSecretStore(db),
    inboundMessages: createInboundMessageStore(db),
    isUnmigrated: (error) => dialect.isMissingTable(error),
    async migrate() {
      // Kysely's migrator looks for its bookkeeping tables in every schema unless told which
      // one: pin it, or tables of another schema in the same database make it skip creating ours.
      const migrationSchema = schema ?? (await dialect.currentSchema(db));
      const migrator = new Migrator({
        db,
        provider: createMigrationProvider(dialect),
        ...migrationTableNames,
        ...(migrationSchema ? { migrationTableSchema: migrationSchema } : {}),
      });
      const { error, results } = await migrator.migrateToLatest();
      if (error) {
        const failed = results?.find((result) => result.status === "Error")?.migrationName;
        throw new Error(`MailPulse migration ${failed ?? ""} failed: ${String(error)}`, { cause: error });
      }
    },
    async close() {
      if (options.ownsConnection !== false) await options.db.destroy();
    },
  };
}
