import { type Kysely, sql } from "kysely";
import type { TrackingHit } from "../../ports/storage.js";
import type { StorageCapabilities } from "../capabilities.js";
import { jsonRows } from "../json-rows.js";
import { queueDeliveries } from "../outbox/queue-deliveries.js";
import type { MailPulseDatabase } from "../schema.js";
import { countedEmailStatuses } from "../schema.js";
import { eventRowsOf, planBatch, planDays } from "./batch-plan.js";

type Db = Kysely<MailPulseDatabase>;
type Dialect = StorageCapabilities["dialect"];

/**
 * Writes a batch of hits inside the caller's transaction, set-based: whatever the batch size, a
 * handful of statements (email counters, events, link counters, contacts, days, outbox), each
 * joining a JSON derived table of the batch's deltas. Returns the number of hits recorded: those
 * of emails that are `sent` (the others are skipped, as the tracking store's contract says).
 */
export async function recordHits(trx: Db, dialect: Dialect, hits: readonly TrackingHit[]): Promise<number> {
  const plan = planBatch(hits);
  const counted = await bumpEmailCounters(trx, dialect, plan.emails);
  const recorded =
    counted.size === plan.emails.length ? hits : hits.filter((hit) => counted.has(hit.event.emailId));
  if (recorded.length === 0) return 0;
  const emails =
    counted.size === plan.emails.length ? plan.emails : plan.emails.filter((e) => counted.has(e.email_id));
  const links = recorded === hits ? plan.links : planBatch(recorded).links;

  const eventIds = await insertEvents(trx, dialect, recorded);
  if (links.length > 0) {
    await trx
      .updateTable("mailpulse_link")
      .from(jsonRows(dialect, links, { link_id: "text", clicks: "bigint" }).as("v"))
      .set((eb) => ({ click_count: eb("mailpulse_link.click_count", "+", eb.ref("v.clicks")) }))
      .whereRef("mailpulse_link.id", "=", "v.link_id")
      .execute();
  }
  await bumpContacts(trx, dialect, emails);
  await bumpDays(trx, recorded);
  // Inside this write transaction SQLite has one writer: the batch's rows are the ids in between.
  await queueDeliveries(trx, Math.min(...eventIds), Math.max(...eventIds));
  return recorded.length;
}

/** Adds the batch's opens and clicks to each `sent` email; returns the ids it counted. */
async function bumpEmailCounters(trx: Db, dialect: Dialect, emails: ReturnType<typeof planBatch>["emails"]) {
  const rows = await trx
    .updateTable("mailpulse_email")
    .from(
      jsonRows(dialect, emails, {
        email_id: "text",
        organization_id: "text",
        opens: "bigint",
        clicks: "bigint",
        first_at: "bigint",
        first_click_at: "bigint",
        last_at: "bigint",
        human_opens: "bigint",
        human_clicks: "bigint",
        human_first_at: "bigint",
        human_first_click_at: "bigint",
      }).as("v"),
    )
    .set((eb) => ({
      open_count: eb("mailpulse_email.open_count", "+", eb.ref("v.opens")),
      click_count: eb("mailpulse_email.click_count", "+", eb.ref("v.clicks")),
      human_open_count: eb("mailpulse_email.human_open_count", "+", eb.ref("v.human_opens")),
      human_click_count: eb("mailpulse_email.human_click_count", "+", eb.ref("v.human_clicks")),
      human_first_opened_at: sql<number>`coalesce(${sql.ref("mailpulse_email.human_first_opened_at")}, ${sql.ref("v.human_first_at")})`,
      human_first_clicked_at: sql<number>`coalesce(${sql.ref("mailpulse_email.human_first_clicked_at")}, ${sql.ref("v.human_first_click_at")})`,
      // The first open or click marks the email opened (and the first click, clicked).
      first_opened_at: sql<number>`coalesce(${sql.ref("mailpulse_email.first_opened_at")}, ${sql.ref("v.first_at")})`,
      first_clicked_at: sql<number>`coalesce(${sql.ref("mailpulse_email.first_clicked_at")}, ${sql.ref("v.first_click_at")})`,
    }))
    .whereRef("mailpulse_email.id", "=", "v.email_id")
    // Every query is scoped to its organization (DESIGN.md), even where the id alone is unique.
    .whereRef("mailpulse_email.organization_id", "=", "v.organization_id")
    // Not sent (failed, or still sending): nothing is counted. `unknown` (crash reconciliation) is.
    .where("mailpulse_email.status", "in", countedEmailStatuses)
    .returning("mailpulse_email.id")
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Appends the hits' event rows; returns their ids. */
async function insertEvents(trx: Db, dialect: Dialect, hits: readonly TrackingHit[]): Promise<number[]> {
  const rows = eventRowsOf(hits);
  const columns = {
    organization_id: "text",
    email_id: "text",
    campaign_id: "text",
    link_id: "text",
    type: "text",
    occurred_at: "bigint",
    ip: "text",
    user_agent: "text",
    method: "text",
    ms_since_sent: "bigint",
    machine: "bigint",
    source: "text",
    reasons: "text",
  } as const;
  const inserted = await trx
    .insertInto("mailpulse_event")
    .columns([
      "organization_id",
      "email_id",
      "campaign_id",
      "link_id",
      "type",
      "occurred_at",
      "ip",
      "user_agent",
      "method",
      "ms_since_sent",
      "machine",
      "source",
      "reasons",
    ])
    .expression((eb) =>
      eb
        .selectFrom(jsonRows(dialect, rows, columns).as("v"))
        .select([
          "v.organization_id",
          "v.email_id",
          "v.campaign_id",
          "v.link_id",
          sql<"open" | "click">`${sql.ref("v.type")}`.as("type"),
          "v.occurred_at",
          "v.ip",
          "v.user_agent",
          "v.method",
          "v.ms_since_sent",
          "v.machine",
          "v.source",
          "v.reasons",
        ]),
    )
    .returning("id")
    .execute();
  return inserted.map((row) => Number(row.id));
}

/**
 * Counts each email's opens and clicks for every distinct `to` contact of it: one UPDATE joining
 * the batch with the recipients (an address listed twice on one email counts once).
 */
async function bumpContacts(trx: Db, dialect: Dialect, emails: ReturnType<typeof planBatch>["emails"]) {
  const v = jsonRows(dialect, emails, {
    email_id: "text",
    opens: "bigint",
    clicks: "bigint",
    last_at: "bigint",
    human_opens: "bigint",
    human_clicks: "bigint",
  });
  const perContact = trx
    .selectFrom(
      trx
        .selectFrom(v.as("v"))
        .innerJoin("mailpulse_email_recipient as r", (join) =>
          join.onRef("r.email_id", "=", "v.email_id").on("r.kind", "=", "to"),
        )
        .select([
          "r.organization_id",
          "r.address",
          "v.email_id",
          "v.opens",
          "v.clicks",
          "v.last_at",
          "v.human_opens",
          "v.human_clicks",
        ])
        .distinct()
        .as("d"),
    )
    .select((eb) => [
      "d.organization_id",
      "d.address",
      eb.fn.sum<number>("d.opens").as("opens"),
      eb.fn.sum<number>("d.clicks").as("clicks"),
      eb.fn.max<number>("d.last_at").as("last_at"),
      eb.fn.sum<number>("d.human_opens").as("human_opens"),
      eb.fn.sum<number>("d.human_clicks").as("human_clicks"),
    ])
    .groupBy(["d.organization_id", "d.address"]);
  await trx
    .updateTable("mailpulse_contact")
    .from(perContact.as("c"))
    .set((eb) => ({
      total_opens: eb("mailpulse_contact.total_opens", "+", eb.ref("c.opens")),
      total_clicks: eb("mailpulse_contact.total_clicks", "+", eb.ref("c.clicks")),
      human_opens: eb("mailpulse_contact.human_opens", "+", eb.ref("c.human_opens")),
      human_clicks: eb("mailpulse_contact.human_clicks", "+", eb.ref("c.human_clicks")),
      last_activity: sql<number>`case when ${sql.ref("mailpulse_contact.last_activity")} > ${sql.ref("c.last_at")} then ${sql.ref("mailpulse_contact.last_activity")} else ${sql.ref("c.last_at")} end`,
    }))
    .whereRef("mailpulse_contact.organization_id", "=", "c.organization_id")
    .whereRef("mailpulse_contact.address", "=", "c.address")
    .execute();
}

async function bumpDays(trx: Db, hits: readonly TrackingHit[]): Promise<void> {
  const days = planDays(hits);
  await trx
    .insertInto("mailpulse_daily_stat")
    .values(days.map((day) => ({ ...day, emails: 0 })))
    .onConflict((conflict) =>
      conflict.columns(["organization_id", "campaign_id", "day"]).doUpdateSet((eb) => ({
        opens: eb("mailpulse_daily_stat.opens", "+", eb.ref("excluded.opens")),
        clicks: eb("mailpulse_daily_stat.clicks", "+", eb.ref("excluded.clicks")),
        human_opens: eb("mailpulse_daily_stat.human_opens", "+", eb.ref("excluded.human_opens")),
        human_clicks: eb("mailpulse_daily_stat.human_clicks", "+", eb.ref("excluded.human_clicks")),
      })),
    )
    .execute();
}
