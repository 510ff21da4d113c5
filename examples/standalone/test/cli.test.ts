import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createMailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { describeStorage } from "../src/open-storage.js";

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

  it("lists organizations and their keys, and revokes a key by its id", async () => {
    const created = JSON.parse((await mailpulse("org", "create", "Listed")).stdout);
    const orgId: string = created.organization.id;
    const { organizations } = JSON.parse((await mailpulse("org", "list")).stdout);
    expect(organizations).toContainEqual({ id: orgId, name: "Listed", createdAt: expect.any(String) });

    await mailpulse("key", "create", orgId);
    const listed = JSON.parse((await mailpulse("key", "list", orgId)).stdout);
    expect(listed.apiKeys).toHaveLength(2);
    const [first] = listed.apiKeys;
    expect(first).toEqual({
      id: expect.any(String),
      prefix: created.apiKey.slice(0, 9),
      name: null,
      createdAt: expect.any(String),
      revokedAt: null,
    });
    // The key itself is never printed again: only its prefix.
    expect(JSON.stringify(listed)).not.toContain(created.apiKey);

    const revoked = JSON.parse((await mailpulse("key", "revoke", first.id)).stdout);
    expect(revoked).toEqual({
      revoked: { id: first.id, organizationId: orgId, revokedAt: expect.any(String) },
    });
    const after = JSON.parse((await mailpulse("key", "list", orgId)).stdout);
    expect(after.apiKeys[0].revokedAt).toBe(revoked.revoked.revokedAt);
    expect(after.apiKeys[1].revokedAt).toBeNull();
    // The revoked key no longer authenticates; the other one still does.
    const storage = sqliteStorage({ filename: env.MAILPULSE_DATABASE });
    const instance = createMailPulse({ storage, baseUrl: "https://mail.example.com", logger: quiet });
    try {
      expect(await instance.apiKeys.authenticate(created.apiKey)).toBeUndefined();
    } finally {
      await instance.stop();
      await storage.close();
    }
    // Again: still revoked at its first time, not an error.
    expect(JSON.parse((await mailpulse("key", "revoke", first.id)).stdout)).toEqual(revoked);

    await expect(mailpulse("key", "revoke", "no-such-key")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("API key not found"),
    });
    await expect(mailpulse("key", "list", "no-such-org")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("Organization not found"),
    });
    await expect(mailpulse("key", "revoke")).rejects.toMatchObject({ code: 2 });
    await expect(mailpulse("org", "list", "extra")).rejects.toMatchObject({ code: 2 });
  }, 120_000); // Eleven CLI processes, each starting tsx.

  // Issue 30, trap 8: the CLI used SQLite quietly while the server ran on PostgreSQL.
  it("says on stderr, for every command, which database it opened", async () => {
    const opened = `mailpulse: SQLite at ${env.MAILPULSE_DATABASE} (set DATABASE_URL for PostgreSQL)\n`;
    expect((await mailpulse("org", "create", "Beta")).stderr).toBe(opened);
    expect((await mailpulse("dns", "platform-records")).stderr).toBe(opened);
    await expect(mailpulse("key", "create", "no-such-org")).rejects.toMatchObject({
      stderr: expect.stringContaining(`${opened}Organization not found`),
    });
    expect(
      describeStorage({ databaseUrl: "postgres://app:s3cret@db.internal:5432/mailpulse", sqlitePath: "" }),
    ).toBe("PostgreSQL database mailpulse at db.internal:5432");
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

  it("judges stored opens and clicks again with the current rules, moving the human figures", async () => {
    // Recorded under a rule that called every hit a person's; the CLI runs without it.
    const everyoneIsHuman = () => ({
      machine: false,
      source: "human" as const,
      reasons: ["a rule since removed"],
    });
    const storage = sqliteStorage({ filename: env.MAILPULSE_DATABASE });
    const recorder = createMailPulse({
      storage,
      baseUrl: "https://mail.example.com",
      logger: quiet,
      tracking: { classificationRules: [everyoneIsHuman] },
    });
    const organization = await recorder.organizations.create({ name: "Measured" });
    const campaign = await recorder.campaigns.create(organization.id, { name: "Launch" });
    const sent = await recorder.emails.send(organization.id, {
      from: "a@acme.example",
      to: "b@example.com",
      subject: "S",
      htmlContent: '<a href="https://example.com/x">x</a>',
      campaignId: "Launch",
    });
    await recorder.tracking.recordOpen(sent.emailTrackingId, { userAgent: "curl/8.4.0" });
    await recorder.tracking.resolveClick(sent.links[0]!.trackingId, { userAgent: "python-requests/2.31.0" });
    await recorder.stop();
    await storage.close();

    const result = await mailpulse("reclassify", organization.id);
    expect(JSON.parse(result.stdout)).toEqual({ emails: 1, hits: 2, changed: 2, flipped: 2 });
    expect(result.stderr).toContain("1 emails, 2 hits judged again, 2 changed");

    const reader = sqliteStorage({ filename: env.MAILPULSE_DATABASE });
    const instance = createMailPulse({ storage: reader, baseUrl: "https://mail.example.com", logger: quiet });
    try {
      const detail = await instance.campaigns.get(organization.id, campaign.id);
      expect(detail.stats).toMatchObject({ totalOpens: 1, totalClicks: 1 });
      expect(detail.stats.human).toEqual({
        totalOpens: 0,
        totalClicks: 0,
        openRate: 0,
        clickRate: 0,
        noInteraction: 1,
      });
      const { data } = await instance.events.list(organization.id, { type: "EMAIL_OPENED,EMAIL_CLICKED" });
      expect(data.map((event) => event.data.source)).toEqual(["bot", "bot"]);
      // All organizations when none is named; nothing is left to change.
      expect(JSON.parse((await mailpulse("reclassify")).stdout)).toMatchObject({ changed: 0, flipped: 0 });
    } finally {
      await instance.stop();
      await reader.close();
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
    await expect(mailpulse("reclassify", "one-org", "and-another")).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("reclassify [organizationId]"),
    });
  });
});
