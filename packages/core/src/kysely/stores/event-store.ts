import type { Kysely } from "kysely";
import type { EventStore, StoredEvent } from "../../ports/storage.js";
import { toDate } from "../mappers.js";
import type { MailPulseDatabase } from "../schema.js";
import { verdictOf } from "../verdict-columns.js";

type Db = Kysely<MailPulseDatabase>;

/**
 * {@link EventStore} on Kysely: the `mailpulse_event` log with what each body reports, joined
 * from the email, its campaign and the clicked link; bounces, complaints and unsubscribes carry
 * their own `details` JSON.
 *
 * Order: a page is "id > after". SQLite runs one write transaction at a time, so ids grow in
 * commit order; on PostgreSQL every writer of the log holds the event log lock from before its
 * first id until it commits (`MailPulseDialect.lockEventLog`), which gives the same guarantee.
 */
export function createEventStore(db: Db): EventStore {
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
        "e.details",
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
      ])
      .where("e.organization_id", "=", organizationId);
  }
  type Row = Awaited<ReturnType<ReturnType<typeof selectEvents>["execute"]>>[number];

  /** The rows as events, with each email's `to` list and tags read in one query each. */
  async function toEvents(rows: Row[]): Promise<StoredEvent[]> {
    const emailIds = [...new Set(rows.map((row) => row.email_id))];
    if (emailIds.length === 0) return [];
    const [recipients, tags] = await Promise.all([
      db
        .selectFrom("mailpulse_email_recipient")
        .select(["email_id", "display"])
        .where("email_id", "in", emailIds)
        .where("kind", "=", "to")
        .orderBy("email_id")
        .orderBy("position")
        .execute(),
      db
        .selectFrom("mailpulse_email_tag")
        .select(["email_id", "name", "value"])
        .where("email_id", "in", emailIds)
        .orderBy("email_id")
        .orderBy("position")
        .execute(),
    ]);
    const toOf = groupBy(recipients, (recipient) => recipient.display);
    const tagsOf = groupBy(tags, (tag) => ({ name: tag.name, value: tag.value }));
    return rows.map((row) => ({
      id: Number(row.id),
      organizationId: row.organization_id,
      type: row.type,
      occurredAt: toDate(row.occurred_at),
      email: {
        id: row.email_id,
        trackingId: row.tracking_id,
        from: row.sender,
        to: toOf.get(row.email_id) ?? [],
        tags: tagsOf.get(row.email_id) ?? [],
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
      verdict: row.type === "open" || row.type === "click" ? verdictOf(row) : null,
      // Written by the feedback store from typed details only (see delivery-feedback-store.ts).
      details: row.details === null ? null : (JSON.parse(row.details) as StoredEvent["details"]),
    }));
  }

  return {
    async list(organizationId, { after, limit, types, emailId, tag }) {
      let query = selectEvents(organizationId);
      if (types && types.length > 0) query = query.where("e.type", "in", types);
      if (emailId !== undefined) query = query.where("e.email_id", "=", emailId);
      if (after !== undefined) query = query.where("e.id", ">", after);
      if (tag) {
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom("mailpulse_email_tag as t")
              .select("t.email_id")
              .whereRef("t.email_id", "=", "e.email_id")
              .where("t.name", "=", tag.name)
              .where("t.value", "=", tag.value),
          ),
        );
      }
      query = query.orderBy("e.id");
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

/** Rows of several emails as lists per email id, in the rows' order. */
function groupBy<Row extends { email_id: string }, T>(
  rows: readonly Row[],
  value: (row: Row) => T,
): Map<string, T[]> {
  const lists = new Map<string, T[]>();
  for (const row of rows) {
    const list = lists.get(row.email_id) ?? [];
    list.push(value(row));
    lists.set(row.email_id, list);
  }
  return lists;
}
