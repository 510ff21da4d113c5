/** Writes a dataset into a migrated SQLite file with prepared statements, in one transaction. */
import Database from "better-sqlite3";
import type { Dataset } from "./dataset.js";
import { datasetTables } from "./rows.js";

/** Seeds `filename` (already migrated by `sqliteStorage`); returns the rows written. */
export function seedSqlite(filename: string, data: Dataset): number {
  const database = new Database(filename);
  // Durability is irrelevant for a fixture; the measured storage reopens with its own pragmas.
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = OFF");
  database.pragma("cache_size = -262144");
  let written = 0;
  try {
    database.transaction(() => {
      for (const table of datasetTables(data)) {
        const placeholders = table.columns.map(() => "?").join(", ");
        const insert = database.prepare(
          `insert into ${table.table} (${table.columns.join(", ")}) values (${placeholders})`,
        );
        for (const row of table.rows()) {
          insert.run(row);
          written++;
        }
      }
    })();
    database.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    database.close();
  }
  return written;
}
