import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  type DnsTestServer,
  type SmtpTestServer,
  startDnsTestServer,
  startSmtpTestServer,
} from "@mailpulse/testing/peers";
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StandaloneServer, startStandalone } from "./support/start-standalone.js";

const cli = new URL("../src/cli.ts", import.meta.url).pathname;
const runFile = promisify(execFile);

/**
 * The "done when", as a new user: `npm start` with MAILPULSE_DNS_SERVERS pointing at a
 * resolver that serves the records, then everything over HTTP, and a signature that verifies.
 */
describe("the standalone server: domains as a new user", () => {
  const folder = mkdtempSync(join(tmpdir(), "mailpulse-domains-"));
  let dns: DnsTestServer;
  let smtp: SmtpTestServer;
  let server: StandaloneServer;
  let baseUrl: string;
  let apiKey: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsTestServer(), startSmtpTestServer()]);
    const settings = {
      MAILPULSE_DATABASE: join(folder, "mailpulse.db"),
      MAILPULSE_BASE_URL: "https://mail.platform.example",
      MAILPULSE_PLATFORM_DOMAIN: "platform.example",
      MAILPULSE_SMTP_URL: smtp.url,
      // The SMTP peer is on loopback, and so is every reader of its mail.
      MAILPULSE_ALLOW_PRIVATE_BASE_URL: "true",
      MAILPULSE_DNS_SERVERS: dns.server,
      MAILPULSE_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    };
    // The CLI below runs with the server's settings.
    env = { ...process.env, DATABASE_URL: "", ...settings };
    server = await startStandalone(settings);
    ({ baseUrl, apiKey } = server);
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([dns?.close(), smtp?.close()]);
    rmSync(folder, { recursive: true, force: true });
  });

  // biome-ignore lint/suspicious/noExplicitAny: loosely typed JSON answers.
  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { "x-api-key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  }

  it("adds a domain, verifies it, sends a DKIM-signed email; sets and uses a tracking domain", async () => {
    const created = await call("POST", "/api/sending-domains", { domain: "acme.example" });
    expect(created.status).toBe(201);
    for (const record of created.json.records as Array<{ type: string; name: string; value: string }>) {
      if (record.type === "MX") dns.add(record.name, { type: "MX", value: record.value, priority: 10 });
      if (record.type === "TXT") dns.add(record.name, { type: "TXT", value: record.value });
      if (record.type === "CNAME") dns.add(record.name, { type: "CNAME", value: record.value });
    }
    // The operator publishes the platform's records, listed by the CLI.
    const listed = await runFile(
      process.execPath,
      ["--import", "tsx", "--conditions=source", cli, "dns", "platform-records"],
      {
        env,
      },
    );
    for (const record of JSON.parse(listed.stdout).records as Array<{ name: string; value: string }>) {
      dns.add(record.name, { type: "TXT", value: record.value });
    }
    const verified = await call("POST", "/api/sending-domains/verify", { domainId: created.json.id });
    expect(verified.json).toMatchObject({ status: "verified", verified: true });

    const sent = await call("POST", "/api/send", {
      from: "News <news@acme.example>",
      to: "ann@example.com",
      subject: "Hello",
      htmlContent: "<p>Hello</p>",
    });
    expect(sent.json.from).toBe("News <news@acme.example>");
    const [message] = await smtp.waitForMessages(1);
    const resolver = new Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([dns.server]);
    const result = await dkimVerify(message!.raw, {
      resolver: (name, type) => resolver.resolve(name, type) as Promise<string[][]>,
    });
    expect(result.results[0]?.status.result).toBe("pass");

    expect((await call("POST", "/api/organizations/domain", { domain: "track.acme.example" })).status).toBe(
      200,
    );
    dns.add("track.acme.example", { type: "CNAME", value: "track.platform.example" });
    expect((await call("POST", "/api/organizations/domain/verify")).json.verified).toBe(true);
    const tracked = await call("POST", "/api/send", {
      from: "news@acme.example",
      to: "ann@example.com",
      subject: "Tracked",
      htmlContent: "<p>Hi</p>",
    });
    expect(tracked.json.pixelUrl.startsWith("https://track.acme.example/api/t/o/")).toBe(true);
  });
});
