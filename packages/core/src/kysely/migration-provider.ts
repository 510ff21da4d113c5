/**
 * The schema, as ordered in-code migrations run by Kysely's Migrator under our own table names
 * (`mailpulse_migration`, `mailpulse_migration_lock`), so a host's tables never collide. One file
 * per migration under `migrations/`, each with `up` and `down`.
 */
import type { Migration, MigrationProvider } from "kysely";
import type { StorageCapabilities } from "./capabilities.js";
import { initialSchema } from "./migrations/0001-initial-schema.js";
import { eventCampaignClickIndex } from "./migrations/0002-event-campaign-click-index.js";
import { sendingDomainChecks } from "./migrations/0003-sending-domain-checks.js";
import { webhookDelivery } from "./migrations/0004-webhook-delivery.js";
import { emailTags } from "./migrations/0005-email-tags.js";
import { idempotencyKeys } from "./migrations/0005-idempotency-keys.js";
import { rateLimit } from "./migrations/0006-rate-limit.js";
import { hitVerdicts } from "./migrations/0007-hit-verdicts.js";

/** Kysely's migration bookkeeping tables, prefixed like ours. */
export const migrationTableNames = {
  migrationTableName: "mailpulse_migration",
  migrationLockTableName: "mailpulse_migration_lock",
} as const;

/**
 * The ordered migrations for a dialect. The names are recorded in `mailpulse_migration` by
 * every database migrated so far: never rename one, and name a new one so it sorts last.
 */
export function createMigrationProvider(capabilities: StorageCapabilities): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        "0001_initial_schema": initialSchema(capabilities),
        "0002_event_campaign_click_index": eventCampaignClickIndex,
        "0003_sending_domain_checks": sendingDomainChecks,
        "0004_webhook_delivery": webhookDelivery(capabilities),
        "0005_email_tags": emailTags,
        "0005_idempotency_keys": idempotencyKeys,
        "0006_rate_limit": rateLimit,
        "0007_hit_verdicts": hitVerdicts,
      };
    },
  };
}
