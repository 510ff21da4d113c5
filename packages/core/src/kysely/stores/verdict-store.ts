import type { Kysely, Transaction } from "kysely";
import type { StoredHit, VerdictStore } from "../../ports/storage.js";
import { utcDayOf } from "../../util/utc-day.js";
import type { MailPulseDialect } from "../dialect.js";
import { toDate } from "../mappers.js";
import { retryOnLockConflict } from "../retry-on-lock-conflict.js";
import type { MailPulseDatabase } from "../schema.js";
import { verdictColumns, verdictOf } from "../verdict-columns.js";

type Db = Kysely<MailPulseDatabase>;

/**
 * {@link VerdictStore} on Kysely. A revision touches one email: its events (by primary key), its
 * counters, its contacts and the days of the flipped hits, so its cost follows that email's
 * hits, never the organization's history.
 */
export function createVerdictStore(db: Db, dialect: MailPulseDialect): VerdictStore {
  return {
    async hitsOfEmail(organizationId, emailId) {
      const rows = await db
        .selectFrom("mailpulse_event as e")
        .innerJoin("mailpulse_email as m", "m.id", "e.email_id")
        .select([
          "e.id",
          "e.type",
          "e.method",
          "e.user_agent",
          "e.ip",
          "e.occurred_at",
          "e.ms_since_sent",
          "e.link_id",
          "e.machine",
          "e.source",
          "e.reasons",
          "m.sent_at",
        ])
        .where("e.organization_id", "=", organizationId)
        .where("e.email_id", "=", emailId)
        .where("e.type", "in", ["open", "click"])
        .orderBy("e.occurred_at")
        .orderBy("e.id")
        .execute();
      return rows.map((row): StoredHit => {
        const occurredAt = toDate(row.occurred_at);
        const sentAt = row.sent_at === null ? null : Number(row.sent_at);
        return {
          eventId: Number(row.id),
          type: row.type === "click" ? "click" : "open",
          method: row.method === "HEAD" ? "HEAD" : "GET",
          userAgent: row.user_agent,
          ip: row.ip,
          occurredAt,
          msSinceSent:
            row.ms_since_sent !== null
              ? Number(row.ms_since_sent)
              : sentAt === null
                ? null
                : Math.max(0, occurredAt.getTime() - sentAt),
          linkId: row.link_id,
          verdict: verdictOf(row),
        };
      });
    },

    async emailsWithHits(organizationId, after, limit) {
      let query = db
        .selectFrom("mailpulse_email")
        .select(["organization_id", "id"])
        .where("status", "=", "sent")
        .where((eb) => eb.or([eb("open_count", ">", 0), eb("click_count", ">", 0)]));
      if (organizationId !== undefined) query = query.where("organization_id", "=", organizationId);
      if (after) {
        query = query.where((eb) =>
          eb(eb.refTuple("organization_id", "id"), ">", eb.tuple(after.organizationId, after.emailId)),
        );
      }
      const rows = await query.orderBy("organization_id").orderBy("id").limit(limit).execute();
      return rows.map((row) => ({ organizationId: row.organization_id, emailId: row.id }));
    },

    async reviseVerdicts(organizationId, emailId, revisions) {
      if (revisions.length === 0) return 0;
      return retryOnLockConflict(
        () => db.transaction().execute((trx) => revise(trx, organizationId, emailId, revisions)),
        dialect.isLockConflict,
      );
    },
  };
}

async function revise(
  trx: Transaction<MailPulseDatabase>,
  organizationId: string,
  emailId: string,
  revisions: Parameters<VerdictStore["reviseVerdicts"]>[2],
): Promise<number> {
  const current = await trx
    .selectFrom("mailpulse_event")
    .select(["id", "type", "occurred_at", "machine", "campaign_id"])
    .where("organization_id", "=", organizationId)
    .where("email_id", "=", emailId)
    .where("type", "in", ["open", "click"])
    .where(
      "id",
      "in",
      revisions.map((revision) => revision.eventId),
    )
    .execute();
  const byId = new Map(current.map((row) => [Number(row.id), row]));
  let opens = 0;
  let clicks = 0;
  let flipped = 0;
  const days = new Map<number, { opens: number; clicks: number; campaignId: string }>();
  for (const revision of revisions) {
    const row = byId.get(revision.eventId);
    if (!row) continue;
    await trx
      .updateTable("mailpulse_event")
      .set(verdictColumns(revision.verdict))
      .where("id", "=", revision.eventId)
      .where("organization_id", "=", organizationId)
      .execute();
    const wasHuman = Number(row.machine) === 0;
    const isHuman = !revision.verdict.machine;
    if (wasHuman === isHuman) continue;
    flipped++;
    const delta = isHuman ? 1 : -1;
    const day = utcDayOf(Number(row.occurred_at));
    const ofDay = days.get(day) ?? { opens: 0, clicks: 0, campaignId: row.campaign_id ?? "" };
    if (row.type === "click") {
      clicks += delta;
      ofDay.clicks += delta;
    } else {
      opens += delta;
      ofDay.opens += delta;
    }
    days.set(day, ofDay);
  }
  if (flipped === 0) return 0;

  // The first human open or click may have been one of the flipped hits: read them again.
  const firstHuman = (types: Array<"open" | "click">) =>
    trx
      .selectFrom("mailpulse_event")
      .select((eb) => eb.fn.min<number | null>("occurred_at").as("first"))
      .where("organization_id", "=", organizationId)
      .where("email_id", "=", emailId)
      .where("machine", "=", 0)
      .where("type", "in", types);
  await trx
    .updateTable("mailpulse_email")
    .set((eb) => ({
      human_open_count: eb("human_open_count", "+", opens),
      human_click_count: eb("human_click_count", "+", clicks),
      human_first_opened_at: firstHuman(["open", "click"]),
      human_first_clicked_at: firstHuman(["click"]),
    }))
    .where("id", "=", emailId)
    .where("organization_id", "=", organizationId)
    .execute();
  // Every distinct `to` contact of the email counts its hits (an address listed twice, once).
  await trx
    .updateTable("mailpulse_contact")
    .set((eb) => ({
      human_opens: eb("human_opens", "+", opens),
      human_clicks: eb("human_clicks", "+", clicks),
    }))
    .where("organization_id", "=", organizationId)
    .where(
      "address",
      "in",
      trx
        .selectFrom("mailpulse_email_recipient")
        .select("address")
        .where("email_id", "=", emailId)
        .where("kind", "=", "to"),
    )
    .execute();
  for (const [day, delta] of days) {
    await trx
      .updateTable("mailpulse_daily_stat")
      .set((eb) => ({
        human_opens: eb("human_opens", "+", delta.opens),
        human_clicks: eb("human_clicks", "+", delta.clicks),
      }))
      .where("organization_id", "=", organizationId)
      .where("campaign_id", "=", delta.campaignId)
      .where("day", "=", day)
      .execute();
  }
  return flipped;
}
