import type { MailPulseDatabase } from "@mailpulse/core/kysely";
import { type Kysely, type RawBuilder, sql } from "kysely";

/**
 * The lock that makes the event log's ids grow in commit order on PostgreSQL.
 *
 * Why: the events API pages by id ("after evt_41"), so an id must never become visible after a
 * higher one. PostgreSQL hands identity values out before commit: without this, a transaction
 * could commit id 41 after another committed 42, and a reader already past 42 would never see 41.
 * Every transaction that appends to `mailpulse_event` takes this transaction-scoped advisory
 * lock first, before any row lock (so the writers cannot deadlock on it), and holds it until it
 * commits: appends are serialised, so their ids are in commit order. They were serialised per
 * process already (the tracking writer runs one batch at a time); across processes the wait is
 * one short transaction. (SQLite runs one write transaction at a time and needs no such lock.)
 *
 * One lock per schema, so instances in different schemas of one database do not wait on each other.
 */
export function eventLogLockSql(schema: string | undefined): RawBuilder<unknown> {
  const scope = schema === undefined ? sql`current_schema()` : sql`cast(${schema} as text)`;
  return sql`pg_advisory_xact_lock(hashtext('mailpulse_event_log:' || ${scope}))`;
}

/** Takes the event log lock inside `trx` (`MailPulseDialect.lockEventLog`). Call it first in the transaction. */
export async function lockEventLog(
  trx: Kysely<MailPulseDatabase>,
  schema: string | undefined,
): Promise<void> {
  await sql`select ${eventLogLockSql(schema)}`.execute(trx);
}
