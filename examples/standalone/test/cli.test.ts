import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createMailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const cli = new URL("../src/cli.ts", import.meta.url).pathname;
const quiet = { info: () => {}, error: () => {} };

describe("npm run mailpulse (the CLI)", () => {
  const folder = mkdtempSync(join(tmpdir(), "mailpulse-cli-"));
  const env = { ...process.env, MAILPULSE_DATABASE: join(folder, "cli.db"), DATABASE_URL: "" };
  const mailpulse = (...args: string[]) =>
    run(process.execPath, ["--import", "tsx", "--conditions=source", cli, ...args], { env });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("creates an organization and keys, printing one JSON line each", async () => {
    const created = await mailpulse("org", "create", "Acme", "Inc");
    const lines = created.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0]!);
    expect(result).toEqual({
      organization: { id: expect.any(String), name: "Acme Inc" },
      apiKey: expect.stringMatching(/^mp_[A-Za-z0-9_-]{43}$/),
    });
    const key = await mailpulse("key", "create", result.organization.id);
    expect(JSON.parse(key.stdout)).toEqual({ apiKey: expect.stringMatching(/^mp_/) });
  });

  it("lists the DKIM TXT records the platform's zone publishes", async () => {
    expect(JSON.parse((await mailpulse("dns", "platform-records")).stdout)).toEqual({ records: [] });
    const storage = sqliteStorage({ filename: env.MAILPULSE_DATABASE });
    const instance = createMailPulse({ storage, baseUrl: "https://mail.example.com", logger: quiet });
    try {
      const organization = await instance.organizations.create({ name: "Acme" });
      const domain = await instance.sendingDomains.create(organization.id, { domain: "acme.example" });
      const cname = domain.records.find((record) => record.type === "CNAME")!;
      const { records } = JSON.parse((await mailpulse("dns", "platform-records")).stdout);
      expect(records).toEqual([
        {
          type: "TXT",
          name: cname.value,
          value: expect.stringMatching(/^v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA/),
          forDomain: "acme.example",
        },
      ]);
      expect(cname.value).toMatch(/\.dkim\.mail\.example\.com$/);
    } finally {
      await instance.stop();
      await storage.close();
    }
  });

  it("fails clearly on an unknown organization and on bad usage", async () => {
    await expect(mailpulse("key", "create", "no-such-org")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("Organization not found"),
    });
    await expect(mailpulse("frobnicate")).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("Usage"),
    });
  });
});
