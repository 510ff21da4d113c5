import { type RawBuilder, sql } from "kysely";
import type { StorageCapabilities } from "./capabilities.js";

/** SQL types a JSON row column is read as. */
export type JsonColumnType = "text" | "bigint";

/**
 * A derived table of `rows`, passed as one JSON parameter: SQLite reads it with `json_each`,
 * PostgreSQL with `jsonb_to_recordset`. Set-based batch writes join against it, so a batch of any
 * size is a handful of statements whose text (and so the work to prepare it) does not grow with
 * the batch, and no dialect's bound-parameter limit is ever reached.
 *
 * Column names and types are the caller's constants, never input; they are spliced into the SQL.
 */
export function jsonRows<Row extends object, Column extends keyof Row & string>(
  dialect: StorageCapabilities["dialect"],
  rows: readonly Row[],
  columns: Readonly<Record<Column, JsonColumnType>>,
): RawBuilder<Pick<Row, Column>> {
  const json = JSON.stringify(rows);
  const names = Object.keys(columns) as Column[];
  const typeOf = (name: Column) => columns[name];
  if (dialect === "postgres") {
    const definitions = names.map((name) => `${name} ${typeOf(name)}`).join(", ");
    return sql<
      Pick<Row, Column>
    >`(select * from jsonb_to_recordset(cast(${json} as jsonb)) as r(${sql.raw(definitions)}))`;
  }
  const selections = names.map((name) => `json_extract(value, '$.${name}') as ${name}`).join(", ");
  return sql<Pick<Row, Column>>`(select ${sql.raw(selections)} from json_each(${json}))`;
}
