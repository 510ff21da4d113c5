import { createMailPulse, type Storage, UnmigratedStorageError } from "@mailpulse/core";
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

  // Issue 30, trap 9: in-process use threw the driver's "no such table: mailpulse_organization".
  it.skipIf(!open)("names the fix when a service is called in-process", async () => {
    const storage = open!();
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "https://mail.example.com",
      logger: { info: () => {}, error: () => {} },
    });
    try {
      const failure = await mailpulse.organizations.create({ name: "Acme" }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(UnmigratedStorageError);
      expect((failure as Error).message).toMatch(
        /^MailPulse: the storage has no MailPulse tables: call `await storage\.migrate\(\)` once before using it \(.*mailpulse_organization/,
      );
      expect((failure as Error).cause).toBeInstanceOf(Error);
      await expect(mailpulse.campaigns.list("org")).rejects.toThrow("call `await storage.migrate()`");
    } finally {
      await mailpulse.stop();
      await storage.close();
    }
  });
});
