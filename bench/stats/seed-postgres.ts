/** Writes a dataset into a migrated PostgreSQL schema with `insert ... select * from unnest(...)`. */
import type pg from "pg";
import type { Dataset } from "./dataset.js";
import { datasetTables, type Row } from "./rows.js";

// Rows per statement: large enough to amortise round trips, small enough for pg's parameter buffers.
const chunkRows = 20_000;

/** Seeds `schema` (already migrated) through `pool`, then VACUUM ANALYZE; returns the rows written. */
export async function seedPostgres(pool: pg.Pool, schema: string, data: Dataset): Promise<number> {
  let written = 0;
  for (const table of datasetTables(data)) {
    const unnest = table.types.map((type, index) => `$${index + 1}::${type}[]`).join(", ");
    const statement = `insert into "${schema}".${table.table} (${table.columns.join(", ")}) select * from unnest(${unnest})`;
    let chunk: Row[] = [];
    const flush = async () => {
      if (chunk.length === 0) return;
      const columns = table.columns.map((_, index) => chunk.map((row) => row[index] ?? null));
      await pool.query(statement, columns);
      written += chunk.length;
      chunk = [];
    };
    for (const row of table.rows()) {
      chunk.push(row);
      if (chunk.length === chunkRows) await flush();
    }
    await flush();
  }
  // What autovacuum does to a loaded table soon after: planner statistics and the visibility map.
  for (const table of datasetTables(data)) await pool.query(`vacuum analyze "${schema}".${table.table}`);
  return written;
}
