/**
 * `@mailpulse/core/kysely`: the Kysely implementation of the storage port, shared by the
 * SQLite and PostgreSQL packages, and the {@link MailPulseDialect} port through which each
 * of them (or a third party's, on another Kysely dialect) supplies what differs.
 */
export { createKyselyStorage, type KyselyStorageOptions } from "./kysely/create-kysely-storage.js";
export type { HitRecorder, HitRecorderContext, MailPulseDialect } from "./kysely/dialect.js";
export { createMigrationProvider, migrationTableNames } from "./kysely/migration-provider.js";
// For the dialects' hit writers: the batch reduced to its writes, the outbox statement they share
// with the email store, and the statuses whose hits count, so each writer spells only its SQL.
export { queueDeliveriesQuery } from "./kysely/outbox/queue-deliveries.js";
export { countedEmailStatuses, type EmailStatusColumn, type MailPulseDatabase } from "./kysely/schema.js";
export {
  type BatchPlan,
  type DayDelta,
  type EmailDelta,
  eventRowsOf,
  type LinkDelta,
  planBatch,
  planDays,
} from "./kysely/tracking/batch-plan.js";
export { createLruCache, type LruCache } from "./util/lru-cache.js";
