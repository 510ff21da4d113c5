import type { Storage } from "@mailpulse/core";
import { createIsolatedPostgresStorage } from "@mailpulse/storage-postgres/testing";
import { sqliteStorage } from "@mailpulse/storage-sqlite";

/** A named way to get a fresh, migrated storage. */
export interface NamedStorageFactory {
  name: "sqlite" | "postgres";
  create: () => Promise<Storage>;
}

const postgresUrl = process.env.DATABASE_URL;

/** In-memory SQLite always; PostgreSQL when DATABASE_URL is set (vitest.global-setup.ts says so otherwise). */
export const storageFactories: NamedStorageFactory[] = [
  {
    name: "sqlite",
    create: async () => {
      const storage = sqliteStorage({ filename: ":memory:" });
      await storage.migrate();
      return storage;
    },
  },
  ...(postgresUrl
    ? [{ name: "postgres" as const, create: () => createIsolatedPostgresStorage(postgresUrl) }]
    : []),
];
