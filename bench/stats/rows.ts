/**
 * The dataset as table rows (column name -> value), shared by the SQLite and PostgreSQL seeders
 * so both databases hold exactly the same thing.
 */
import { dayMs } from "../../packages/core/src/util/utc-day.js";
import { benchNow, benchVerdicts, campaignKey, type Dataset } from "./dataset.js";

type Value = string | number | null;
/** A row of one table, in column order. */
export type Row = Value[];

/** One table's columns and a generator of its rows. */
export interface TableRows {
  table: string;
  columns: string[];
  /** PostgreSQL types of the columns, for `unnest($1::text[], ...)`. */
  types: string[];
  rows: () => Iterable<Row>;
}

/** Every table of the fixture, in foreign-key order. */
export function datasetTables(data: Dataset): TableRows[] {
  const org = data.organizationId;
  const campaign = (index: number) => (index < 0 ? null : (data.campaignIds[index] ?? null));
  return [
    {
      table: "mailpulse_organization",
      columns: ["id", "name", "created_at"],
      types: ["text", "text", "bigint"],
      rows: () => [[org, "Bench", benchNow - 365 * dayMs]],
    },
    {
      table: "mailpulse_campaign",
      columns: ["id", "organization_id", "name", "created_at", "archived_at"],
      types: ["text", "text", "text", "bigint", "bigint"],
      // Every tenth campaign is archived: statistics still count it.
      rows: () =>
        data.campaignIds.map((id, c) => [
          id,
          org,
          `Campaign ${c}`,
          benchNow - 200 * dayMs,
          c % 10 === 9 ? benchNow - dayMs : null,
        ]),
    },
    {
      table: "mailpulse_email",
      columns: [
        "id",
        "organization_id",
        "campaign_id",
        "tracking_id",
        "status",
        "origin",
        "provider_message_id",
        "from_address",
        "sender",
        "reply_to",
        "subject",
        "recipient",
        "metadata",
        "track_opens",
        "track_clicks",
        "open_count",
        "click_count",
        "first_opened_at",
        "first_clicked_at",
        "human_open_count",
        "human_click_count",
        "human_first_opened_at",
        "human_first_clicked_at",
        "failure_reason",
        "created_at",
        "sent_at",
      ],
      types: [
        "text",
        "text",
        "text",
        "text",
        "text",
        "text",
        "text",
        "text",
        "text",
        "text",
        "text",
        "text",
        "text",
        "int",
        "int",
        "int",
        "int",
        "bigint",
        "bigint",
        "int",
        "int",
        "bigint",
        "bigint",
        "text",
        "bigint",
        "bigint",
      ],
      rows: function* () {
        for (const [i, e] of data.emails.entries()) {
          yield [
            e.id,
            org,
            campaign(e.campaignIndex),
            `trk-${i}`,
            e.status,
            "send",
            e.status === "sent" ? `msg-${i}` : null,
            "news@acme.example",
            "news@acme.example",
            null,
            `Newsletter ${i % 500}`,
            e.to[0] ?? "",
            null,
            1,
            1,
            e.openCount,
            e.clickCount,
            e.firstOpenedAt,
            e.firstClickedAt,
            e.humanOpenCount,
            e.humanClickCount,
            e.humanFirstOpenedAt,
            e.humanFirstClickedAt,
            e.status === "failed" ? "550 refused" : null,
            e.createdAt,
            e.sentAt,
          ];
        }
      },
    },
    {
      table: "mailpulse_email_recipient",
      columns: ["email_id", "organization_id", "kind", "position", "address", "display"],
      types: ["text", "text", "text", "int", "text", "text"],
      rows: function* () {
        for (const e of data.emails) {
          for (const [position, address] of e.to.entries())
            yield [e.id, org, "to", position, address, address];
          if (e.cc) yield [e.id, org, "cc", 0, e.cc, e.cc];
        }
      },
    },
    {
      table: "mailpulse_link",
      columns: [
        "id",
        "email_id",
        "organization_id",
        "campaign_id",
        "url",
        "position",
        "click_count",
        "created_at",
      ],
      types: ["text", "text", "text", "text", "text", "int", "int", "bigint"],
      rows: function* () {
        for (const [i, e] of data.emails.entries()) {
          for (const [position, url] of e.linkUrls.entries()) {
            yield [
              `lnk-${i}-${position}`,
              e.id,
              org,
              campaign(e.campaignIndex),
              url,
              position,
              e.linkClicks[position] ?? 0,
              e.createdAt,
            ];
          }
        }
      },
    },
    {
      table: "mailpulse_event",
      columns: [
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
      ],
      types: [
        "text",
        "text",
        "text",
        "text",
        "text",
        "bigint",
        "text",
        "text",
        "text",
        "bigint",
        "int",
        "text",
        "text",
      ],
      rows: function* () {
        const { events } = data;
        // One JSON text per verdict, not per event: a million JSON.stringify calls would add up.
        const reasonsJson = benchVerdicts.map((verdict) => JSON.stringify(verdict.reasons));
        for (let j = 0; j < events.count; j++) {
          const i = events.emailIndex[j] ?? 0;
          const e = data.emails[i]!;
          const click = events.type[j] === 1;
          const at = events.occurredAt[j] ?? 0;
          const verdict = events.verdict[j] ?? 0;
          const { machine, source } = benchVerdicts[verdict]!;
          yield [
            org,
            e.id,
            campaign(e.campaignIndex),
            click ? `lnk-${i}-${events.linkIndex[j]}` : null,
            click ? "click" : "open",
            at,
            "203.0.113.0",
            "Mozilla/5.0 (bench)",
            // What the tracking endpoint records with every hit: it stores GETs only.
            "GET",
            e.sentAt === null ? null : at - e.sentAt,
            machine ? 1 : 0,
            source,
            reasonsJson[verdict]!,
          ];
        }
      },
    },
    {
      table: "mailpulse_contact",
      columns: [
        "organization_id",
        "address",
        "total_emails",
        "total_opens",
        "total_clicks",
        "human_opens",
        "human_clicks",
        "first_seen",
        "last_activity",
      ],
      types: ["text", "text", "int", "int", "int", "int", "int", "bigint", "bigint"],
      rows: function* () {
        for (const [address, c] of data.contacts) {
          yield [
            org,
            address,
            c.totalEmails,
            c.totalOpens,
            c.totalClicks,
            c.humanOpens,
            c.humanClicks,
            c.firstSeen,
            c.lastActivity,
          ];
        }
      },
    },
    {
      table: "mailpulse_daily_stat",
      columns: [
        "organization_id",
        "campaign_id",
        "day",
        "emails",
        "opens",
        "clicks",
        "human_opens",
        "human_clicks",
      ],
      types: ["text", "text", "int", "int", "int", "int", "int", "int"],
      rows: () =>
        data.daily.map((d) => [
          org,
          campaignKey(data.campaignIds, d.campaignIndex),
          d.day,
          d.emails,
          d.opens,
          d.clicks,
          d.humanOpens,
          d.humanClicks,
        ]),
    },
  ];
}
