import { type Kysely, sql } from "kysely";
import type { EventStore, StoredEvent } from "../../ports/storage.js";
import type { StorageCapabilities } from "../capabilities.js";
import { toDate } from "../mappers.js";
import type { MailPulseDatabase } from "../schema.js";
import { verdictOf } from "../verdict-columns.js";

type Db = Kysely<MailPulseDatabase>;

/**
 * {@link EventStore} on Kysely: the `mailpulse_event` log with what each body reports, joined
 * from the email, its campaign and the clicked link.
 *
 * Order: SQLite runs one write transaction at a time, so ids grow in commit order and a page is
 * "id > cursor". PostgreSQL hands out identity values before commit: a transaction may commit id
 * 41 after another committed 42, and a reader paging past 42 would never see 41. So each row
 * keeps its transaction id (`commit_xid`, a column default); pages go by (transaction id, id) and
 * show only rows whose transaction is older than every transaction still running
 * (`pg_snapshot_xmin`). Anything that commits later sorts after every row already shown.
 */
export function createEventStore(db: Db, capabilities: StorageCapabilities): EventStore {
  const postgres = capabilities.dialect === "postgres";

  function selectEvents(organizationId: string) {
    return db
      .selectFrom("mailpulse_event as e")
      .innerJoin("mailpulse_email as m", "m.id", "e.email_id")
      .leftJoin("mailpulse_campaign as c", "c.id", "e.campaign_id")
      .leftJoin("mailpulse_link as l", "l.id", "e.link_id")
      .select([
        "e.id",
        "e.organization_id",
        "e.type",
        "e.occurred_at",
        "e.ip",
        "e.user_agent",
        "e.machine",
        "e.source",
        "e.reasons",
        "m.id as email_id",
        "m.tracking_id",
        "m.sender",
        "m.subject",
        "m.metadata",
        "m.provider_message_id",
        "c.id as campaign_id",
        "c.name as campaign_name",
        "l.id as link_id",
        "l.url as link_url",
        sql<string | null>`${postgres ? sql`cast(${sql.ref("e.commit_xid")} as text)` : sql`null`}`.as(
          "commit_xid",
        ),
      ])
      .where("e.organization_id", "=", organizationId);
  }
  type Row = Awaited<ReturnType<ReturnType<typeof selectEvents>["execute"]>>[number];

  /** The rows as events, with each email's `to` list read in one query. */
  async function toEvents(rows: Row[]): Promise<StoredEvent[]> {
    const emailIds = [...new Set(rows.map((row) => row.email_id))];
    const recipients =
      emailIds.length === 0
        ? []
        : await db
            .selectFrom("mailpulse_email_recipient")
            .select(["email_id", "display"])
            .where("email_id", "in", emailIds)
            .where("kind", "=", "to")
            .orderBy("email_id")
            .orderBy("position")
            .execute();
    const toOf = new Map<string, string[]>();
    for (const recipient of recipients) {
      const list = toOf.get(recipient.email_id) ?? [];
      list.push(recipient.display);
      toOf.set(recipient.email_id, list);
    }
    return rows.map((row) => ({
      id: Number(row.id),
      position: { transaction: row.commit_xid, id: Number(row.id) },
      organizationId: row.organization_id,
      type: row.type,
      occurredAt: toDate(row.occurred_at),
      email: {
        id: row.email_id,
        trackingId: row.tracking_id,
        from: row.sender,
        to: toOf.get(row.email_id) ?? [],
        subject: row.subject,
        metadata: row.metadata,
        providerMessageId: row.provider_message_id,
      },
      campaign:
        row.campaign_id === null || row.campaign_name === null
          ? null
          : { id: row.campaign_id, name: row.campaign_name },
      link: row.link_id === null || row.link_url === null ? null : { id: row.link_id, url: row.link_url },
      ip: row.ip,
      userAgent: row.user_agent,
      verdict: row.type === "sent" ? null : verdictOf(row),
    }));
  }

  return {
    async list(organizationId, { after, limit, types, emailId }) {
      let query = selectEvents(organizationId);
      if (types && types.length > 0) query = query.where("e.type", "in", types);
      if (emailId !== undefined) query = query.where("e.email_id", "=", emailId);
      if (postgres) {
        query = query.where(
          sql<boolean>`${sql.ref("e.commit_xid")} < pg_snapshot_xmin(pg_current_snapshot())`,
        );
        if (after) {
          query = query.where(
            sql<boolean>`(${sql.ref("e.commit_xid")}, ${sql.ref("e.id")}) > (cast(${after.transaction ?? "0"} as xid8), ${after.id})`,
          );
        }
        query = query.orderBy(sql.ref("e.commit_xid")).orderBy("e.id");
      } else {
        if (after) query = query.where("e.id", ">", after.id);
        query = query.orderBy("e.id");
      }
      return toEvents(await query.limit(limit).execute());
    },

    async findByIds(organizationId, ids) {
      if (ids.length === 0) return [];
      const rows = await selectEvents(organizationId).where("e.id", "in", ids).execute();
      const byId = new Map((await toEvents(rows)).map((event) => [event.id, event]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
  };
}
