import { type Kysely, Migrator, type SqliteDatabase, sql } from "kysely";
import type { RateLimitBackend, Storage } from "../ports/storage.js";
import type { StorageCapabilities } from "./capabilities.js";
import { createMigrationProvider, migrationTableNames } from "./migration-provider.js";
import type { MailPulseDatabase } from "./schema.js";
import { createApiKeyStore } from "./stores/api-key-store.js";
import { createCampaignStore } from "./stores/campaign-store.js";
import { createDeliveryStore } from "./stores/delivery-store.js";
import { createEmailStore } from "./stores/email-store.js";
import { createEventStore } from "./stores/event-store.js";
import { createIdempotencyKeyStore } from "./stores/idempotency-key-store.js";
import { createOrganizationStore } from "./stores/organization-store.js";
import { createSendingDomainStore } from "./stores/sending-domain-store.js";
import { createStatsStore } from "./stores/stats-store.js";
import { createTrackingStore } from "./stores/tracking-store.js";
import { createVerdictStore } from "./stores/verdict-store.js";
import { createWebhookStore } from "./stores/webhook-store.js";
import { createHitRecorder } from "./tracking/hit-recorder.js";
import type { PreparedQueryRunner } from "./tracking/record-hits-postgres.js";

/** Options of {@link createKyselyStorage}. */
export interface KyselyStorageOptions {
  /** A Kysely instance over the MailPulse tables (any dialect the capabilities describe). */
  db: Kysely<MailPulseDatabase>;
  capabilities: StorageCapabilities;
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
  /**
   * SQLite only, and required there: the database `db`'s dialect runs on. The tracking write path
   * runs its compiled statements on it directly, holding `db`'s connection meanwhile
   * (`kysely/tracking/record-hits-sqlite.ts` says why).
   */
  sqliteDatabase?: SqliteDatabase;
  /**
   * PostgreSQL only: a runner of named prepared statements (the `pg.Pool` `db` runs on). Given,
   * the tracking write path's batch statement is parsed and planned once per connection instead
   * of on every batch. Leave it out behind a pooler that cannot keep prepared statements (PgBouncer
   * in transaction mode before 1.21).
   */
  postgresPreparedQueries?: PreparedQueryRunner;
}

/** The one Kysely implementation of {@link Storage}; storage packages supply dialect and flags. */
export function createKyselyStorage(options: KyselyStorageOptions): Storage {
  const { capabilities, schema } = options;
  if (capabilities.dialect === "sqlite" && !options.sqliteDatabase) {
    // Said at construction, not at the first tracking hit of a running server.
    throw new TypeError(
      "createKyselyStorage: a SQLite storage needs `sqliteDatabase`, the database its dialect runs on",
    );
  }
  const db = schema ? options.db.withSchema(schema) : options.db;
  return {
    organizations: createOrganizationStore(db),
    apiKeys: createApiKeyStore(db),
    campaigns: createCampaignStore(db, capabilities),
    emails: createEmailStore(db, capabilities, schema),
    tracking: createTrackingStore(
      db,
      capabilities,
      createHitRecorder(db, {
        capabilities,
        schema,
        sqliteDatabase: options.sqliteDatabase,
        postgresPreparedQueries: options.postgresPreparedQueries,
      }),
    ),
    stats: createStatsStore(db),
    webhooks: createWebhookStore(db, capabilities),
    deliveries: createDeliveryStore(db, capabilities),
    events: createEventStore(db),
    sendingDomains: createSendingDomainStore(db),
    idempotencyKeys: createIdempotencyKeyStore(db),
    ...(options.rateLimitBackend ? { rateLimitBackend: options.rateLimitBackend } : {}),
    verdicts: createVerdictStore(db),
    async migrate() {
      // Kysely's migrator looks for its bookkeeping tables in every schema unless told which
      // one: pin it, or tables of another schema in the same database make it skip creating ours.
      const migrationSchema =
        schema ??
        (capabilities.dialect === "postgres"
          ? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name
          : undefined);
      const migrator = new Migrator({
        db,
        provider: createMigrationProvider(capabilities),
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
