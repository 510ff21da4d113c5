import type { Storage } from "@mailpulse/core";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import type { Settings } from "./settings.js";

/** Opens and migrates the database the settings name: PostgreSQL when DATABASE_URL is set, else SQLite. */
export async function openStorage(settings: Settings): Promise<{ storage: Storage; description: string }> {
  const storage = settings.databaseUrl
    ? postgresStorage({ connectionString: settings.databaseUrl })
    : sqliteStorage({ filename: settings.sqlitePath });
  try {
    await storage.migrate();
  } catch (error) {
    await storage.close().catch(() => {});
    throw error;
  }
  return { storage, description: describeStorage(settings) };
}

/**
 * Which database the settings name, for a person: `PostgreSQL database mp at db:5432` or
 * `SQLite at /srv/app/data/mailpulse.db`; never the password.
 */
export function describeStorage(settings: Pick<Settings, "databaseUrl" | "sqlitePath">): string {
  if (!settings.databaseUrl) return `SQLite at ${settings.sqlitePath}`;
  const url = new URL(settings.databaseUrl);
  const database = decodeURIComponent(url.pathname.slice(1));
  return `PostgreSQL ${database ? `database ${database} ` : ""}at ${url.host}`;
}
