/**
 * The schema, as ordered in-code migrations run by Kysely's Migrator under our own table names
 * (`mailpulse_migration`, `mailpulse_migration_lock`), so a host's tables never collide. One file
 * per migration under `migrations/`, each with `up` and `down`.
 */
import type { Migration, MigrationProvider } from "kysely";
import type { MailPulseDialect } from "./dialect.js";
import { initialSchema } from "./migrations/0001-initial-schema.js";
import { eventCampaignClickIndex } from "./migrations/0002-event-campaign-click-index.js";
import { sendingDomainChecks } from "./migrations/0003-sending-domain-checks.js";
import { webhookDelivery } from "./migrations/0004-webhook-delivery.js";
import { emailTags } from "./migrations/0005a-email-tags.js";
import { idempotencyKeys } from "./migrations/0005b-idempotency-keys.js";
import { rateLimit } from "./migrations/0006-rate-limit.js";
import { hitVerdicts } from "./migrations/0007-hit-verdicts.js";
import { suppressions } from "./migrations/0008-suppressions.js";
import { deliveryFeedback } from "./migrations/0009-delivery-feedback.js";
import { inboundMessages } from "./migrations/0010-inbound-messages.js";
import { emailListIndex } from "./migrations/0011-email-list-index.js";

/** Kysely's migration bookkeeping tables, prefixed like ours. */
export const migrationTableNames = {
  migrationTableName: "mailpulse_migration",
  migrationLockTableName: "mailpulse_migration_lock",
} as const;

/**
 * The ordered migrations, with the dialect's DDL (only `addSerialId` is read). Kysely runs them
 * in the order of their names, and every database migrated so far has recorded the names in
 * `mailpulse_migration`: never rename one (a renamed one would run again, and Kysely refuses a
 * recorded name that is missing), and name a new one so it sorts last (`0008_...`).
 *
 * Two names share the number 0005: they were added in parallel and released so. They stay as
 * recorded; their files are `0005a-`/`0005b-` to show the order the names sort in, which is the
 * order they run in (docs/storage.md, Migrations).
 */
export function createMigrationProvider(dialect: Pick<MailPulseDialect, "addSerialId">): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        "0001_initial_schema": initialSchema(dialect),
        "0002_event_campaign_click_index": eventCampaignClickIndex,
        "0003_sending_domain_checks": sendingDomainChecks,
        "0004_webhook_delivery": webhookDelivery(dialect),
        "0005_email_tags": emailTags,
        "0005_idempotency_keys": idempotencyKeys,
        "0006_rate_limit": rateLimit,
        "0007_hit_verdicts": hitVerdicts,
        "0008_suppressions": suppressions,
        "0009_delivery_feedback": deliveryFeedback(dialect),
        "0010_inbound_messages": inboundMessages(dialect),
        "0011_email_list_index": emailListIndex,
      };
    },
  };
}
