/** Opens the storage a benchmark server or checker is told to use. */
import type { Storage } from "@mailpulse/core";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import type { StorageConfig } from "./config.js";

/**
 * A MailPulse storage on the configured database, as a host app would open it. Not migrated:
 * the seeding step migrated it, and a server restarted per run should not pay for that.
 */
export function openStorage(config: StorageConfig): Storage {
  return config.kind === "sqlite"
    ? sqliteStorage({ filename: config.filename })
    : postgresStorage({ connectionString: config.url, schema: config.schema });
}
