/**
 * What the SQL dialect under the Kysely store can do. Storage packages declare these; the
 * shared store and migrations branch on them instead of on dialect names scattered around.
 */
export interface StorageCapabilities {
  /** Dialect family, for the few DDL spellings that differ (auto-increment keys). */
  dialect: "sqlite" | "postgres";
  /** `FOR UPDATE SKIP LOCKED` is available, so several workers can claim outbox rows. */
  skipLocked: boolean;
}
