/**
 * Statistics endpoints at 100k and 1M tracking events.
 *
 * Seeds a deterministic fixture (100,000 emails, 50,000 contacts, 200 campaigns; bench/stats/
 * dataset.ts) twice, differing only in history: 100,000 events, then 1,000,000 events. Every event
 * carries a verdict (human, Apple privacy prefetch, image proxy, scanner, bot), and the rollups,
 * raw and human, are computed from the same events the fixture inserts, so they are what the
 * stores would hold. A check of one campaign's, one period's and one contact's figures against
 * the events (bench/stats/check.ts) fails the run on a seeding mistake. Then each endpoint's
 * service call (in-process, what the HTTP route calls) is timed: median of 20 sequential calls
 * after 3 warm-up calls. The 1M/100k ratio shows whether an endpoint's cost follows the history
 * (ratio near 10) or the answer (ratio near 1).
 *
 * SQLite runs on a file in the temp folder; PostgreSQL in a schema of its own in DATABASE_URL's
 * database (dropped afterwards), skipped when DATABASE_URL is not set.
 *
 * Run: npm run bench:stats
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import type { Storage } from "@mailpulse/core";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import pg from "pg";
import { checkFigures, type ExpectedFigures, expectedFigures } from "./stats/check.js";
import { buildDataset, type Dataset, type DatasetSize } from "./stats/dataset.js";
import { benchEndpoints, benchTargets } from "./stats/endpoints.js";
import { measureAsync, measuredRuns } from "./stats/measure.js";
import { seedPostgres } from "./stats/seed-postgres.js";
import { seedSqlite } from "./stats/seed-sqlite.js";

/** One endpoint on one storage: medians in milliseconds and their ratio. */
export interface StatsBenchRow {
  storage: "sqlite" | "postgres";
  endpoint: string;
  ms100k: number;
  ms1m: number;
  /** ms1m / ms100k: near 1 when the cost follows the answer, near 10 when it follows history. */
  ratio: number;
}

const baseSize = { emails: 100_000, contacts: 50_000, campaigns: 200 };
const eventCounts = [100_000, 1_000_000] as const;

type Medians = Map<string, number>;

/** Checks the seeded figures (throws when they are wrong), then times every endpoint. */
async function measureEndpoints(
  storage: Storage,
  data: Dataset,
  expected: ExpectedFigures,
): Promise<Medians> {
  await checkFigures(storage, data, expected);
  const medians: Medians = new Map();
  for (const endpoint of benchEndpoints(storage, data)) {
    medians.set(endpoint.name, await measureAsync(endpoint.call));
  }
  return medians;
}

async function onSqlite(
  data: Dataset,
  expected: ExpectedFigures,
  log: (line: string) => void,
): Promise<Medians> {
  const folder = mkdtempSync(join(tmpdir(), "mailpulse-bench-"));
  const filename = join(folder, "stats.db");
  try {
    const migrated = sqliteStorage({ filename });
    await migrated.migrate();
    await migrated.close();
    const started = performance.now();
    const rows = seedSqlite(filename, data);
    log(`  sqlite: seeded ${rows.toLocaleString("en")} rows in ${seconds(started)}`);
    const storage = sqliteStorage({ filename });
    try {
      return await measureEndpoints(storage, data, expected);
    } finally {
      await storage.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function onPostgres(
  url: string,
  data: Dataset,
  expected: ExpectedFigures,
  log: (line: string) => void,
): Promise<Medians> {
  const schema = `mailpulse_bench_${randomBytes(6).toString("hex")}`;
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  try {
    const storage = postgresStorage({ pool, schema });
    await storage.migrate();
    const started = performance.now();
    const rows = await seedPostgres(pool, schema, data);
    log(`  postgres: seeded ${rows.toLocaleString("en")} rows (+ vacuum analyze) in ${seconds(started)}`);
    const medians = await measureEndpoints(storage, data, expected);
    await storage.close();
    return medians;
  } finally {
    await pool.query(`drop schema if exists "${schema}" cascade`).finally(() => pool.end());
  }
}

/** The checked campaign's totals, for the log: a run shows what its figures were checked against. */
function checkedTotals({ campaign }: ExpectedFigures): string {
  return `${campaign.opens} opens (${campaign.humanOpens} human), ${campaign.clicks} clicks (${campaign.humanClicks} human)`;
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/**
 * Seeds and measures everything; logs progress and the table through `log`, returns the rows.
 * PostgreSQL is measured when `databaseUrl` (default: DATABASE_URL) is set.
 */
export async function run(
  options: { databaseUrl?: string; log?: (line: string) => void } = {},
): Promise<StatsBenchRow[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  const results = { sqlite: [] as Medians[], postgres: [] as Medians[] };
  for (const events of eventCounts) {
    const size: DatasetSize = { ...baseSize, events };
    const started = performance.now();
    const data = buildDataset(size);
    const expected = expectedFigures(data);
    log(`${events.toLocaleString("en")} events: fixture built in ${seconds(started)}`);
    log(`  figures checked against campaign ${benchTargets.campaignIndex}: ${checkedTotals(expected)}`);
    results.sqlite.push(await onSqlite(data, expected, log));
    if (databaseUrl) results.postgres.push(await onPostgres(databaseUrl, data, expected, log));
  }
  if (!databaseUrl) log("PostgreSQL skipped: DATABASE_URL is not set.");

  const rows: StatsBenchRow[] = [];
  for (const storage of ["sqlite", "postgres"] as const) {
    const [small, large] = results[storage];
    if (!small || !large) continue;
    for (const [endpoint, ms100k] of small) {
      const ms1m = large.get(endpoint) ?? Number.NaN;
      rows.push({ storage, endpoint, ms100k, ms1m, ratio: ms1m / ms100k });
    }
  }
  log(`\nMedian of ${measuredRuns} in-process service calls (ms); ratio = 1M / 100k`);
  console.table(
    rows.map((row) => ({
      storage: row.storage,
      endpoint: row.endpoint,
      "100k events": row.ms100k.toFixed(2),
      "1M events": row.ms1m.toFixed(2),
      "1M/100k": row.ratio.toFixed(2),
    })),
  );
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
