import { type Kysely, type Selectable, sql } from "kysely";
import type { ContactRecord, ContactStatsStore } from "../../ports/storage.js";
import { toCount, toDate } from "../mappers.js";
import type { ContactTable, MailPulseDatabase } from "../schema.js";
import { countedEmailStatuses } from "../schema.js";
import { createContactTimelineQuery } from "./contact-timeline.js";

const contactColumns = [
  "address",
  "total_emails",
  "total_opens",
  "total_clicks",
  "human_opens",
  "human_clicks",
  "first_seen",
  "last_activity",
] as const;

type ContactRow = Pick<Selectable<ContactTable>, (typeof contactColumns)[number]>;

function toContact(row: ContactRow): ContactRecord {
  return {
    address: row.address,
    totalEmails: toCount(row.total_emails),
    totalOpens: toCount(row.total_opens),
    totalClicks: toCount(row.total_clicks),
    humanOpens: toCount(row.human_opens),
    humanClicks: toCount(row.human_clicks),
    firstSeen: toDate(row.first_seen),
    lastActivity: toDate(row.last_activity),
  };
}

/** A LIKE pattern matching `needle` literally anywhere (with `ESCAPE '\'`). */
export function containsPattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, "\\$&")}%`;
}

// Both dialects bind at most tens of thousands of parameters; pages are at most 1,000 anyway.
const addressChunk = 500;

/** {@link ContactStatsStore} on Kysely: pages over the `mailpulse_contact` rollup, never over history. */
export function createContactStatsStore(db: Kysely<MailPulseDatabase>): ContactStatsStore {
  return {
    async listContacts(organizationId, query) {
      let select = db
        .selectFrom("mailpulse_contact")
        .select(contactColumns)
        .where("organization_id", "=", organizationId);
      if (query.search) {
        // Addresses are stored lowercased, so a lowercased needle makes LIKE case-insensitive on
        // both dialects (PostgreSQL's LIKE is case-sensitive, SQLite's only for ASCII).
        const pattern = containsPattern(query.search.toLowerCase());
        select = select.where(sql<boolean>`${sql.ref("address")} like ${pattern} escape '\\'`);
      }
      if (query.after) {
        const { lastActivity, address } = query.after;
        // A row-value comparison walks the (organization_id, last_activity, address) index backwards.
        select = select.where((eb) =>
          eb(eb.refTuple("last_activity", "address"), "<", eb.tuple(lastActivity.getTime(), address)),
        );
      }
      const rows = await select
        .orderBy("last_activity", "desc")
        .orderBy("address", "desc")
        .limit(query.limit)
        .execute();
      return rows.map(toContact);
    },
    async getContact(organizationId, address) {
      const row = await db
        .selectFrom("mailpulse_contact")
        .select(contactColumns)
        .where("organization_id", "=", organizationId)
        .where("address", "=", address)
        .executeTakeFirst();
      return row && toContact(row);
    },
    async contactCampaigns(organizationId, addresses) {
      const found: Array<{ address: string; name: string }> = [];
      for (let start = 0; start < addresses.length; start += addressChunk) {
        const rows = await db
          .selectFrom("mailpulse_email_recipient")
          .innerJoin("mailpulse_email", "mailpulse_email.id", "mailpulse_email_recipient.email_id")
          .innerJoin("mailpulse_campaign", "mailpulse_campaign.id", "mailpulse_email.campaign_id")
          .where("mailpulse_email_recipient.organization_id", "=", organizationId)
          .where("mailpulse_email_recipient.address", "in", addresses.slice(start, start + addressChunk))
          .where("mailpulse_email_recipient.kind", "=", "to")
          .where("mailpulse_email.status", "in", countedEmailStatuses)
          .select(["mailpulse_email_recipient.address", "mailpulse_campaign.name"])
          .distinct()
          .execute();
        found.push(...rows);
      }
      return found;
    },
    contactTimeline: createContactTimelineQuery(db),
  };
}
