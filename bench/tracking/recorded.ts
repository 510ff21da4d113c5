/** How many opens or clicks a database holds, read two ways that must agree. */
import type { StorageConfig } from "../server/config.js";
import { scalarQuery } from "../server/scalar-query.js";

/** Recorded hits of one type: event rows, and the rollup counter they bumped. */
export interface RecordedHits {
  /** Rows in the event table. */
  events: number;
  /** Sum of the per-email open counters (opens) or per-link click counters (clicks). */
  counters: number;
}

/** Counts the recorded opens or clicks in the database of `config`. */
export async function countRecorded(config: StorageConfig, type: "open" | "click"): Promise<RecordedHits> {
  const events = await scalarQuery(config, `select count(*) from {mailpulse_event} where type = '${type}'`);
  const counters = await scalarQuery(
    config,
    type === "open"
      ? "select coalesce(sum(open_count), 0) from {mailpulse_email}"
      : "select coalesce(sum(click_count), 0) from {mailpulse_link}",
  );
  return { events, counters };
}
