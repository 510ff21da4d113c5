/**
 * Migration 0007 on a database that already has opens and clicks: the human counters start equal
 * to the raw ones (the old events carry the "recorded before classification" verdict, which is
 * human), so every human figure equals its raw twin until `mailpulse reclassify` runs.
 */

import { sqliteMailPulseDialect } from "@mailpulse/storage-sqlite";
import Database from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { describe, expect, it } from "vitest";
import { createMigrationProvider, migrationTableNames } from "../../src/kysely/migration-provider.js";

// biome-ignore lint/suspicious/noExplicitAny: the database as it was before 0007, untyped.
type AnyDb = Kysely<any>;

describe("migration 0007_hit_verdicts", () => {
  it("starts the human counters at the raw ones, and old events read as human with a reason", async () => {
    const database = new Database(":memory:");
    const db: AnyDb = new Kysely({ dialect: new SqliteDialect({ database }) });
    try {
      const migrator = new Migrator({
        db,
        provider: createMigrationProvider(sqliteMailPulseDialect({ database })),
        ...migrationTableNames,
      });
      expect((await migrator.migrateTo("0004_webhook_delivery")).error).toBeUndefined();
      await db.insertInto("mailpulse_organization").values({ id: "o", name: "O", created_at: 0 }).execute();
      await db
        .insertInto("mailpulse_campaign")
        .values({ id: "c", organization_id: "o", name: "C", created_at: 0 })
        .execute();
      const email = {
        organization_id: "o",
        campaign_id: "c",
        status: "sent",
        origin: "send",
        from_address: "a@x.example",
        sender: "a@x.example",
        subject: "S",
        recipient: "b@x.example",
        track_opens: 1,
        track_clicks: 1,
        created_at: 0,
        sent_at: 0,
      };
      await db
        .insertInto("mailpulse_email")
        .values([
          {
            ...email,
            id: "e1",
            tracking_id: "t1",
            open_count: 3,
            click_count: 1,
            first_opened_at: 5,
            first_clicked_at: 9,
          },
          {
            ...email,
            id: "e2",
            tracking_id: "t2",
            open_count: 0,
            click_count: 0,
            first_opened_at: null,
            first_clicked_at: null,
          },
        ])
        .execute();
      await db
        .insertInto("mailpulse_event")
        .values({ organization_id: "o", email_id: "e1", campaign_id: "c", type: "open", occurred_at: 5 })
        .execute();
      await db
        .insertInto("mailpulse_contact")
        .values({
          organization_id: "o",
          address: "b@x.example",
          total_emails: 2,
          total_opens: 3,
          total_clicks: 1,
          first_seen: 0,
          last_activity: 9,
        })
        .execute();
      await db
        .insertInto("mailpulse_daily_stat")
        .values({ organization_id: "o", campaign_id: "c", day: 0, emails: 2, opens: 3, clicks: 1 })
        .execute();

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(
        await db
          .selectFrom("mailpulse_email")
          .select([
            "id",
            "human_open_count",
            "human_click_count",
            "human_first_opened_at",
            "human_first_clicked_at",
          ])
          .orderBy("id")
          .execute(),
      ).toEqual([
        {
          id: "e1",
          human_open_count: 3,
          human_click_count: 1,
          human_first_opened_at: 5,
          human_first_clicked_at: 9,
        },
        {
          id: "e2",
          human_open_count: 0,
          human_click_count: 0,
          human_first_opened_at: null,
          human_first_clicked_at: null,
        },
      ]);
      expect(
        await db.selectFrom("mailpulse_contact").select(["human_opens", "human_clicks"]).execute(),
      ).toEqual([{ human_opens: 3, human_clicks: 1 }]);
      expect(
        await db.selectFrom("mailpulse_daily_stat").select(["human_opens", "human_clicks"]).execute(),
      ).toEqual([{ human_opens: 3, human_clicks: 1 }]);
      expect(
        await db
          .selectFrom("mailpulse_event")
          .select(["method", "ms_since_sent", "machine", "source", "reasons"])
          .execute(),
      ).toEqual([
        {
          method: null,
          ms_since_sent: null,
          machine: 0,
          source: "human",
          reasons: '["recorded before MailPulse classified hits; run the reclassify command"]',
        },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
