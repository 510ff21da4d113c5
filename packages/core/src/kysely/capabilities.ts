/**
 * What the SQL dialect under the Kysely store can do. Storage packages declare these; the
 * shared store and migrations branch on them instead of on dialect names scattered around.
 * A flag is added with the code that reads it (the webhook worker brings `FOR UPDATE SKIP
 * LOCKED`), so every declared capability acts.
 */
export interface StorageCapabilities {
  /**
   * Dialect family, for the few spellings that differ: auto-increment keys, row locks, and the
   * JSON table functions of the batched tracking writes.
   */
  dialect: "sqlite" | "postgres";
  /**
   * Whether `SELECT ... FOR UPDATE SKIP LOCKED` exists: the webhook worker claims outbox rows with
   * it, so workers of several processes skip each other's rows instead of waiting on them. Without
   * it (SQLite: one writer at a time) a claim is a single `UPDATE ... RETURNING`.
   */
  skipLocked: boolean;
}
