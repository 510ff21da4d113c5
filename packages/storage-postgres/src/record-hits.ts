import { createHash } from "node:crypto";
import { countedEmailStatuses, eventRowsOf, type MailPulseDatabase, planBatch } from "@mailpulse/core/kysely";
import type { TrackingHit } from "@mailpulse/core/storage";
import { type CompiledQuery, type Kysely, sql } from "kysely";
import { eventLogLockSql } from "./event-log-lock.js";

type Db = Kysely<MailPulseDatabase>;

/** The counted statuses as an SQL list: fixed identifiers, so inlined (the statement stays prepared once). */
const counted = sql.raw(countedEmailStatuses.map((status) => `'${status}'`).join(", "));

/**
 * Writes a batch of hits on PostgreSQL in ONE statement: data-modifying CTEs update the email
 * counters (only of `sent` emails of the named organization), and, for the hits of the emails that
 * update counted, insert the events, bump link, contact and daily counters and queue the webhook
 * deliveries. One statement is atomic by itself, so no BEGIN/COMMIT either; and one round trip, since
 * the subscribed webhooks are joined in it rather than looked up before. It takes the event log's
 * advisory lock first (event-log-lock.ts), so its event ids are in commit order.
 *
 * Why not the statement-per-table transaction SQLite uses: on PostgreSQL every statement is a
 * network round trip, and under load each one waits for the server's busy event loop before its
 * answer is read. Nine round trips per batch made the round trips, not the database, the limit
 * (bench/RESULTS.md); one round trip removes it.
 *
 * Returns the number of hits recorded.
 */
export async function recordHitsPostgres(
  db: Db,
  hits: readonly TrackingHit[],
  schema: string | undefined,
  prepared: PreparedQueryRunner | undefined,
): Promise<number> {
  // `withSchema` does not reach into raw SQL: name the schema here.
  const table = (name: string) => sql.table(schema === undefined ? name : `${schema}.${name}`);
  const plan = planBatch(hits);
  const rows = eventRowsOf(hits);

  const statement = sql<{ recorded: string | number }>`
    with event_log_lock as (
      -- Taken before anything else reads v, so before any row lock: event ids in commit order.
      select ${eventLogLockSql(schema)}
    ),
    v as (
      select r.* from event_log_lock, jsonb_to_recordset(cast(${JSON.stringify(plan.emails)} as jsonb)) as r(
        email_id text, organization_id text, opens bigint, clicks bigint,
        first_at bigint, first_click_at bigint, last_at bigint,
        human_opens bigint, human_clicks bigint, human_first_at bigint, human_first_click_at bigint)
    ),
    h as (
      select * from jsonb_to_recordset(cast(${JSON.stringify(rows)} as jsonb)) as r(
        organization_id text, email_id text, campaign_id text, link_id text, type text,
        occurred_at bigint, ip text, user_agent text,
        method text, ms_since_sent bigint, machine integer, source text, reasons text)
    ),
    e as (
      update ${table("mailpulse_email")} as m set
        open_count = m.open_count + v.opens,
        click_count = m.click_count + v.clicks,
        first_opened_at = coalesce(m.first_opened_at, v.first_at),
        first_clicked_at = coalesce(m.first_clicked_at, v.first_click_at),
        human_open_count = m.human_open_count + v.human_opens,
        human_click_count = m.human_click_count + v.human_clicks,
        human_first_opened_at = coalesce(m.human_first_opened_at, v.human_first_at),
        human_first_clicked_at = coalesce(m.human_first_clicked_at, v.human_first_click_at)
      from v
      where m.id = v.email_id and m.organization_id = v.organization_id and m.status in (${counted})
        -- The planner cannot see how few rows v holds and would scan every sent email; an id
        -- list it can count makes it look the batch's emails up by primary key.
        and m.id = any(cast(${plan.emails.map((delta) => delta.email_id)} as text[]))
      returning m.id
    ),
    recorded as (select h.* from h join e on e.id = h.email_id),
    inserted_events as (
      insert into ${table("mailpulse_event")}
        (organization_id, email_id, campaign_id, link_id, type, occurred_at, ip, user_agent,
         method, ms_since_sent, machine, source, reasons)
      select organization_id, email_id, campaign_id, link_id, type, occurred_at, ip, user_agent,
        method, ms_since_sent, machine, source, reasons
      from recorded
      returning id, organization_id, type, occurred_at
    ),
    link_clicks as (
      update ${table("mailpulse_link")} as l set click_count = l.click_count + c.clicks
      from (
        select link_id, count(*) as clicks from recorded
        where type = 'click' and link_id is not null group by link_id
      ) as c
      where l.id = c.link_id
    ),
    contact_deltas as (
      -- An address listed twice on one email counts once: distinct per (contact, email) first.
      select d.organization_id, d.address, sum(d.opens) as opens, sum(d.clicks) as clicks,
        max(d.last_at) as last_at, sum(d.human_opens) as human_opens, sum(d.human_clicks) as human_clicks
      from (
        select distinct r.organization_id, r.address, v.email_id, v.opens, v.clicks, v.last_at,
          v.human_opens, v.human_clicks
        from v
        join e on e.id = v.email_id
        join ${table("mailpulse_email_recipient")} as r on r.email_id = v.email_id and r.kind = 'to'
      ) as d
      group by d.organization_id, d.address
    ),
    contact_locks as materialized (
      -- The contact rows, locked in address order before any is updated: sends to the same people
      -- lock them in that order too (rollups.ts), and the prepared statement's generic plan may
      -- otherwise update them in hash order, which deadlocked against concurrent sends.
      select k.address from ${table("mailpulse_contact")} as k
      join contact_deltas as c on k.organization_id = c.organization_id and k.address = c.address
      order by k.organization_id, k.address
      for update of k
    ),
    contacts as (
      update ${table("mailpulse_contact")} as k set
        total_opens = k.total_opens + c.opens,
        total_clicks = k.total_clicks + c.clicks,
        human_opens = k.human_opens + c.human_opens,
        human_clicks = k.human_clicks + c.human_clicks,
        last_activity = greatest(k.last_activity, c.last_at)
      from contact_deltas as c
      where k.organization_id = c.organization_id and k.address = c.address
        -- Counting every locked row makes the locks come first, all of them, in their order.
        and (select count(*) from contact_locks) >= 0
      returning k.address
    ),
    day_deltas as (
      -- The same UTC day number as utcDayOf: whole days since the epoch.
      select organization_id, coalesce(campaign_id, '') as campaign_id,
        cast(floor(occurred_at / 86400000.0) as integer) as day,
        count(*) filter (where type = 'open') as opens,
        count(*) filter (where type = 'click') as clicks,
        count(*) filter (where type = 'open' and machine = 0) as human_opens,
        count(*) filter (where type = 'click' and machine = 0) as human_clicks
      from recorded
      -- After the contacts, as a send updates them (its contacts, then its day): the other order
      -- deadlocked against concurrent sends on the day's row.
      where (select count(*) from contacts) >= 0
      group by 1, 2, 3
    ),
    days as (
      insert into ${table("mailpulse_daily_stat")} as s
        (organization_id, campaign_id, day, emails, opens, clicks, human_opens, human_clicks)
      select organization_id, campaign_id, day, 0, opens, clicks, human_opens, human_clicks from day_deltas
      on conflict (organization_id, campaign_id, day) do update set
        opens = s.opens + excluded.opens,
        clicks = s.clicks + excluded.clicks,
        human_opens = s.human_opens + excluded.human_opens,
        human_clicks = s.human_clicks + excluded.human_clicks
    ),
    outbox as (
      -- One delivery per (event, active webhook of its organization subscribed to its type).
      insert into ${table("mailpulse_webhook_delivery")}
        (organization_id, webhook_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
      select ie.organization_id, w.id, ie.id,
        case ie.type when 'open' then 'EMAIL_OPENED' else 'EMAIL_CLICKED' end,
        'pending', 0, ie.occurred_at, ie.occurred_at
      from inserted_events as ie
      join ${table("mailpulse_webhook")} as w on w.organization_id = ie.organization_id
        and w.is_active = 1
        and w.events like case ie.type when 'open' then '%"EMAIL_OPENED"%' else '%"EMAIL_CLICKED"%' end
    )
    select count(*) as recorded from recorded
  `;
  const answer = prepared
    ? await runPrepared(prepared, statement.compile(db))
    : (await statement.execute(db)).rows;
  return Number(answer[0]?.recorded ?? 0);
}

/**
 * Runs a query as a named prepared statement: `pg`'s `query({ name, text, values })` (a `Pool` or
 * `Client`). The connection parses and plans the statement once, then only binds and executes it.
 */
export interface PreparedQueryRunner {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

const statementNames = new Map<string, string>();

/**
 * The batch statement's text never changes for a schema (every value is a parameter), so it is
 * prepared once per connection under a name derived from the text. Planning it took 2-5 ms, more
 * than executing it for a batch of 50 (`EXPLAIN ANALYZE`, bench/RESULTS.md).
 */
async function runPrepared(
  runner: PreparedQueryRunner,
  compiled: CompiledQuery<{ recorded: string | number }>,
) {
  let name = statementNames.get(compiled.sql);
  if (name === undefined) {
    name = `mailpulse_hits_${createHash("sha256").update(compiled.sql).digest("hex").slice(0, 16)}`;
    statementNames.set(compiled.sql, name);
  }
  const result = await runner.query({ name, text: compiled.sql, values: [...compiled.parameters] });
  return result.rows as Array<{ recorded: string | number }>;
}
