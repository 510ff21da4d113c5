import type { CreateTableBuilder, Kysely } from "kysely";
import type { TrackingHit } from "../ports/storage.js";
import type { MailPulseDatabase } from "./schema.js";

/** Writes one batch of tracking hits in one transaction; resolves to the number recorded. */
export type HitRecorder = (hits: readonly TrackingHit[]) => Promise<number>;

/** What the shared store hands a dialect's hit writer when it builds it (once, at construction). */
export interface HitRecorderContext {
  /**
   * The database schema holding the tables (`KyselyStorageOptions.schema`), or undefined for the
   * connection's current one. `db` already carries it through `withSchema`; raw SQL must name it.
   */
  schema: string | undefined;
}

/**
 * What differs between the SQL databases under the shared Kysely store, behind flags and methods
 * (as Kysely's own `DialectAdapter` does), so the store and its migrations never ask which
 * database they run on. Each storage package implements it: `sqliteMailPulseDialect` in
 * `@mailpulse/storage-sqlite`, `postgresMailPulseDialect` in `@mailpulse/storage-postgres`.
 * Everything else (queries, migrations, rollups) is written once, in SQL both accept.
 *
 * A member is added with the code that reads it, so every one of them acts.
 */
export interface MailPulseDialect {
  /**
   * Whether `SELECT ... FOR UPDATE` locks rows. The store then serialises the writes of one
   * organization that check a limit before inserting (campaigns, webhooks) by locking the
   * organization's row first. Without row locks the database must run one write transaction at a
   * time (SQLite), which serialises them already.
   */
  readonly rowLocks: boolean;
  /**
   * Whether `SELECT ... FOR UPDATE SKIP LOCKED` exists: the webhook worker claims outbox rows with
   * it, so workers of several processes skip each other's rows instead of waiting on them. Without
   * it (SQLite: one writer at a time) a claim is a single `UPDATE ... RETURNING`.
   */
  readonly skipLocked: boolean;
  /**
   * How many batches the tracking writer may have in flight at once (at least 1). More than one
   * only pays where a batch waits on a network round trip and the database orders concurrent
   * batches itself (PostgreSQL: 2, one batch's trip hides the other's); an in-process database
   * writing one transaction at a time gains nothing (SQLite: 1).
   */
  readonly concurrentHitBatches: number;
  /**
   * Whether a driver error is the database aborting a transaction for a conflict with another
   * writer (a deadlock, a serialization failure, a busy database), so the store runs the
   * transaction again, a few times, instead of failing a send or a tracking batch for it.
   * PostgreSQL: `40P01`, `40001`; SQLite: `SQLITE_BUSY`, `SQLITE_BUSY_SNAPSHOT`.
   */
  isLockConflict(error: unknown): boolean;
  /**
   * Whether a driver error is a unique or primary key violation: the store answers it as the
   * contract's "taken"/"exists" outcome (a concurrent insert of the same name won the race).
   * PostgreSQL: `23505`; SQLite: `SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_CONSTRAINT_PRIMARYKEY`.
   */
  isUniqueViolation(error: unknown): boolean;
  /**
   * Whether a driver error says a MailPulse table does not exist: the storage was never migrated.
   * `Storage.isUnmigrated` answers with it, so the log names the fix (`await storage.migrate()`).
   * PostgreSQL: `42P01`; SQLite: `SQLITE_ERROR` "no such table: mailpulse_...".
   */
  isMissingTable(error: unknown): boolean;
  /**
   * Adds the integer primary key `id` that grows with each insert (the event log and the webhook
   * outbox): an identity column on PostgreSQL, the rowid alias on SQLite. Ids must be assigned in
   * insert order; {@link lockEventLog} makes them visible in that order too. The only DDL that
   * differs between the dialects; migrations call it for every such table.
   */
  addSerialId<T extends string>(table: CreateTableBuilder<T, never>): CreateTableBuilder<T, "id">;
  /**
   * The schema unqualified table names resolve to on this connection, or undefined where the
   * database has no schemas (SQLite). `migrate()` pins Kysely's migrator to it when the storage
   * names no schema: the migrator otherwise looks for its bookkeeping tables in every schema, and
   * tables of another schema in the same database would make it skip creating ours.
   */
  currentSchema(db: Kysely<MailPulseDatabase>): Promise<string | undefined>;
  /**
   * Makes the event log's ids become visible in increasing order. Called first (before any row
   * lock) in every transaction that appends to `mailpulse_event` outside the hit writer, and held
   * until it commits. Why: the events API pages by id ("after evt_41"), so an id must never become
   * visible after a higher one. A database that assigns ids before commit and commits transactions
   * concurrently (PostgreSQL) takes a lock that serialises the appends; one that runs one write
   * transaction at a time (SQLite) resolves at once. The hit writer takes the same lock itself.
   */
  lockEventLog(trx: Kysely<MailPulseDatabase>, schema: string | undefined): Promise<void>;
  /**
   * Builds the tracking write path, once per storage: a function that writes a batch of hits in
   * one transaction, with every rollup a hit updates (the email's counters of a counted email
   * only, its event, link, contacts and daily counters, and the webhook deliveries of its event),
   * taking {@link lockEventLog}'s lock where the dialect needs one. This is the hot path (every
   * recipient's open and click), so each dialect writes it in the form its database runs fastest.
   * The store retries a batch that failed on a lock conflict. Throw here, not at the first hit,
   * when something the writer needs is missing.
   */
  createHitRecorder(db: Kysely<MailPulseDatabase>, context: HitRecorderContext): HitRecorder;
}
