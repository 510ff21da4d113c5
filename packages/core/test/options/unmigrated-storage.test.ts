import { createMailPulse, type Storage } from "@mailpulse/core";
import { postgresStorage } from "@mailpulse/storage-postgres";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { describe, expect, it } from "vitest";

const databaseUrl = process.env.DATABASE_URL;

const storages: Array<[string, (() => Storage) | undefined]> = [
  ["SQLite", () => sqliteStorage({ filename: ":memory:" })],
  [
    "PostgreSQL",
    databaseUrl
      ? () => postgresStorage({ connectionString: databaseUrl, schema: `never_migrated_${process.pid}` })
      : undefined,
  ],
];

describe.each(storages)("a storage nobody migrated (%s)", (_name, open) => {
  it.skipIf(!open)("answers 500 and logs that `await storage.migrate()` is missing", async () => {
    const storage = open!();
    const errors: string[] = [];
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "https://mail.example.com",
      logger: { info: () => {}, error: (line) => errors.push(line) },
    });
    try {
      const response = await mailpulse.handler(
        new Request("https://mail.example.com/api/campaigns", { headers: { "x-api-key": "mp_x" } }),
      );
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: "Internal server error" });
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/call `await storage\.migrate\(\)`/);
    } finally {
      await mailpulse.stop();
      await storage.close();
    }
  });
});
