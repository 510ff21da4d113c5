import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { runStorageContractSuite } from "@mailpulse/testing/contracts";
import { afterAll, describe, expect, it } from "vitest";

runStorageContractSuite("sqlite (in memory)", async () => {
  const storage = sqliteStorage({ filename: ":memory:" });
  await storage.migrate();
  return storage;
});

describe("sqliteStorage on a file", () => {
  const folder = mkdtempSync(join(tmpdir(), "mailpulse-sqlite-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("creates missing folders and keeps data across reopenings", async () => {
    const filename = join(folder, "nested", "dir", "mailpulse.db");
    const first = sqliteStorage({ filename });
    await first.migrate();
    await first.organizations.create({
      id: "org-1",
      name: "Kept",
      createdAt: new Date("2026-02-01T00:00:00Z"),
    });
    await first.close();

    const second = sqliteStorage({ filename });
    await second.migrate();
    expect((await second.organizations.list()).map((org) => org.name)).toEqual(["Kept"]);
    await second.close();
  });
});
