import type { Migration } from "kysely";
import type { AnyDb } from "./any-db.js";

/** The reasons of events recorded before hits were classified, until they are re-classified. */
export const unclassifiedReasons =
  '["recorded before MailPulse classified hits; run the reclassify command"]';

/**
 * `0007_hit_verdicts`: every open and click keeps its raw signals and its verdict, and every
 * rollup counts human hits beside all hits (docs/measurement.md).
 *
 * - `mailpulse_event` gains the request's `method` and `ms_since_sent` (the other raw signals,
 *   time, user agent and IP, were there), and the verdict: `machine` (0/1), `source`, `reasons`
 *   (a JSON array of strings). Rows recorded before have no verdict: they read as `human` with a
 *   reason saying so, until `mailpulse reclassify` judges them.
 * - Human counters beside the raw ones, maintained in the same statements: per email
 *   (`human_open_count`, `human_click_count`, `human_first_opened_at`, `human_first_clicked_at`),
 *   per contact (`human_opens`, `human_clicks`) and per day (`human_opens`, `human_clicks`). They
 *   start equal to the raw counters, which is what the unclassified rows' verdict says.
 */
export const hitVerdicts: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable("mailpulse_event").addColumn("method", "text").execute();
    await db.schema.alterTable("mailpulse_event").addColumn("ms_since_sent", "bigint").execute();
    await db.schema
      .alterTable("mailpulse_event")
      .addColumn("machine", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable("mailpulse_event")
      .addColumn("source", "text", (c) => c.notNull().defaultTo("human"))
      .execute();
    await db.schema
      .alterTable("mailpulse_event")
      .addColumn("reasons", "text", (c) => c.notNull().defaultTo(unclassifiedReasons))
      .execute();

    for (const column of ["human_open_count", "human_click_count"]) {
      await db.schema
        .alterTable("mailpulse_email")
        .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    }
    for (const column of ["human_first_opened_at", "human_first_clicked_at"]) {
      await db.schema.alterTable("mailpulse_email").addColumn(column, "bigint").execute();
    }
    for (const table of ["mailpulse_contact", "mailpulse_daily_stat"]) {
      for (const column of ["human_opens", "human_clicks"]) {
        await db.schema
          .alterTable(table)
          .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
          .execute();
      }
    }

    // Builders, not raw SQL: a storage in its own schema reaches the tables through `withSchema`.
    await db
      .updateTable("mailpulse_email")
      .set((eb) => ({
        human_open_count: eb.ref("open_count"),
        human_click_count: eb.ref("click_count"),
        human_first_opened_at: eb.ref("first_opened_at"),
        human_first_clicked_at: eb.ref("first_clicked_at"),
      }))
      .where((eb) => eb.or([eb("open_count", ">", 0), eb("click_count", ">", 0)]))
      .execute();
    await db
      .updateTable("mailpulse_contact")
      .set((eb) => ({ human_opens: eb.ref("total_opens"), human_clicks: eb.ref("total_clicks") }))
      .where((eb) => eb.or([eb("total_opens", ">", 0), eb("total_clicks", ">", 0)]))
      .execute();
    await db
      .updateTable("mailpulse_daily_stat")
      .set((eb) => ({ human_opens: eb.ref("opens"), human_clicks: eb.ref("clicks") }))
      .where((eb) => eb.or([eb("opens", ">", 0), eb("clicks", ">", 0)]))
      .execute();
  },

  async down(db: AnyDb) {
    for (const column of ["method", "ms_since_sent", "machine", "source", "reasons"]) {
      await db.schema.alterTable("mailpulse_event").dropColumn(column).execute();
    }
    for (const column of [
      "human_open_count",
      "human_click_count",
      "human_first_opened_at",
      "human_first_clicked_at",
    ]) {
      await db.schema.alterTable("mailpulse_email").dropColumn(column).execute();
    }
    for (const table of ["mailpulse_contact", "mailpulse_daily_stat"]) {
      for (const column of ["human_opens", "human_clicks"]) {
        await db.schema.alterTable(table).dropColumn(column).execute();
      }
    }
  },
};
