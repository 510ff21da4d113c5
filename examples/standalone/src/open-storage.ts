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
  const description = settings.databaseUrl
    ? `PostgreSQL at ${new URL(settings.databaseUrl).host}`
    : `SQLite at ${settings.sqlitePath}`;
  return { storage, description };
}
