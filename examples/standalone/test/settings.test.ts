import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sendingLine } from "../src/sending-line.js";
import { readSettings, SettingsError } from "../src/settings.js";

const pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const caFile = join(mkdtempSync(join(tmpdir(), "mailpulse-settings-")), "ca.pem");
writeFileSync(caFile, pem);

describe("standalone settings", () => {
  it("defaults to SQLite under ./data of the folder npm started in, port 3000 on 127.0.0.1", () => {
    const settings = readSettings({ INIT_CWD: "/srv/app" });
    expect(settings).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      sqlitePath: "/srv/app/data/mailpulse.db",
      databaseUrl: undefined,
      baseUrl: "http://localhost:3000",
      platformDomain: "localhost",
      maxCampaigns: undefined,
      smtpUrl: undefined,
      webhookAllowPrivate: false,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      rateLimitPerMinute: 600,
      inboundSmtpPort: undefined,
      inboundSmtpHost: "127.0.0.1",
    });
  });

  it("reads every documented variable", () => {
    const settings = readSettings({
      PORT: "8080",
      HOST: "0.0.0.0",
      MAILPULSE_DATABASE: "/var/lib/mailpulse.db",
      DATABASE_URL: "postgres://u@db:5432/mp",
      MAILPULSE_BASE_URL: "https://mail.example.com/",
      MAILPULSE_MAX_CAMPAIGNS: "25",
      MAILPULSE_SMTP_URL: "smtps://user:pw@smtp.example.com:465",
      MAILPULSE_DNS_SERVERS: "127.0.0.1:5353, [::1]:53",
      MAILPULSE_ENCRYPTION_KEY: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
      MAILPULSE_WEBHOOK_ALLOW_PRIVATE: "true",
      MAILPULSE_REQUEST_TIMEOUT: "60",
      MAILPULSE_HEADERS_TIMEOUT: "5",
      MAILPULSE_RATE_LIMIT: "120",
      MAILPULSE_TRUST_PROXY: "10.0.0.0/8, 2001:db8::/32",
      MAILPULSE_SNS_TOPIC_ARNS:
        "arn:aws:sns:us-east-1:123456789012:ses-feedback, arn:aws-cn:sns:cn-north-1:123456789012:b",
      MAILPULSE_INBOUND_SMTP_PORT: "2525",
      MAILPULSE_INBOUND_SMTP_HOST: "0.0.0.0",
      MAILPULSE_ALLOW_PRIVATE_BASE_URL: "true",
      MAILPULSE_PLATFORM_DOMAIN: "example.com",
      MAILPULSE_FROM_ADDRESSES: "as-given",
      MAILPULSE_WEBHOOK_CA_FILE: caFile,
    });
    expect(settings).toEqual({
      port: 8080,
      host: "0.0.0.0",
      sqlitePath: "/var/lib/mailpulse.db",
      databaseUrl: "postgres://u@db:5432/mp",
      baseUrl: "https://mail.example.com",
      allowPrivateBaseUrl: true,
      platformDomain: "example.com",
      platformDomainSet: true,
      fromAddresses: "as-given",
      webhookCa: pem,
      maxCampaigns: 25,
      smtpUrl: "smtps://user:pw@smtp.example.com:465",
      dnsServers: ["127.0.0.1:5353", "[::1]:53"],
      encryptionKey: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
      webhookAllowPrivate: true,
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 5_000,
      rateLimitPerMinute: 120,
      trustProxy: ["10.0.0.0/8", "2001:db8::/32"],
      snsTopicArns: [
        "arn:aws:sns:us-east-1:123456789012:ses-feedback",
        "arn:aws-cn:sns:cn-north-1:123456789012:b",
      ],
      inboundSmtpPort: 2525,
      inboundSmtpHost: "0.0.0.0",
    });
  });

  it("reads MAILPULSE_TRUST_PROXY as false, true or a hop count too", () => {
    expect(readSettings({}).trustProxy).toBe(false);
    expect(readSettings({ MAILPULSE_TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(readSettings({ MAILPULSE_TRUST_PROXY: "2" }).trustProxy).toBe(2);
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["MAILPULSE_MAX_CAMPAIGNS", "-1"],
    ["MAILPULSE_BASE_URL", "not a url"],
    ["MAILPULSE_BASE_URL", "ftp://x.example"],
    ["DATABASE_URL", "mysql://x"],
    ["MAILPULSE_SMTP_URL", "http://smtp.example.com"],
    ["MAILPULSE_DNS_SERVERS", "dns.example.com"],
    ["MAILPULSE_PLATFORM_DOMAIN", "bad domain!"],
    ["MAILPULSE_ENCRYPTION_KEY", "c2hvcnQ="],
    ["MAILPULSE_WEBHOOK_ALLOW_PRIVATE", "yes"],
    ["MAILPULSE_REQUEST_TIMEOUT", "0"],
    ["MAILPULSE_HEADERS_TIMEOUT", "31"],
    ["MAILPULSE_RATE_LIMIT", "-5"],
    ["MAILPULSE_TRUST_PROXY", "10.0.0.0/99"],
    ["MAILPULSE_TRUST_PROXY", "proxy.internal"],
    ["MAILPULSE_SNS_TOPIC_ARNS", "ses-feedback"],
    ["MAILPULSE_ALLOW_PRIVATE_BASE_URL", "yes"],
    ["MAILPULSE_FROM_ADDRESSES", "as-is"],
    ["MAILPULSE_WEBHOOK_CA_FILE", "/nonexistent/ca.pem"],
    ["MAILPULSE_WEBHOOK_CA_FILE", "/etc/hostname"],
  ])("refuses %s=%s with a message naming it", (name, value) => {
    expect(() => readSettings({ [name]: value })).toThrowError(SettingsError);
    expect(() => readSettings({ [name]: value })).toThrowError(name);
  });
});

describe("invalid-setting messages", () => {
  it.each([
    ["MAILPULSE_SMTP_URL", "smtp://mailer:s3cret-pw@smtp.example.com:99999"],
    ["DATABASE_URL", "postgres://app:s3cret-pw@db.example.com:5432:5432/mp"],
    ["DATABASE_URL", "mysql://app:s3cret-pw@db.example.com/mp"],
  ])("never echo the password of %s", (name, value) => {
    let message = "";
    try {
      readSettings({ [name]: value });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(name);
    expect(message).not.toContain("s3cret-pw");
  });
});

// Issue 30, traps 1, 2 and 4 as the standalone server's operator meets them.
describe("settings that would send broken mail", () => {
  it("refuses MAILPULSE_SMTP_URL with the default localhost base URL, naming the settings", () => {
    const read = () => readSettings({ MAILPULSE_SMTP_URL: "smtp://relay.example.com:587" });
    expect(read).toThrowError(SettingsError);
    expect(read).toThrowError(
      /MAILPULSE_BASE_URL is http:\/\/localhost:3000 \(the default\).*MAILPULSE_ALLOW_PRIVATE_BASE_URL=true/,
    );
    expect(() =>
      readSettings({
        MAILPULSE_SMTP_URL: "smtp://relay.example.com:587",
        MAILPULSE_BASE_URL: "http://10.0.0.5:3000",
      }),
    ).toThrowError(/is http:\/\/10\.0\.0\.5:3000, a private network address/);
  });

  it("accepts it with MAILPULSE_ALLOW_PRIVATE_BASE_URL=true or a public base URL", () => {
    const smtp = { MAILPULSE_SMTP_URL: "smtp://relay.example.com:587" };
    expect(readSettings({ ...smtp, MAILPULSE_ALLOW_PRIVATE_BASE_URL: "true" }).allowPrivateBaseUrl).toBe(
      true,
    );
    expect(readSettings({ ...smtp, MAILPULSE_BASE_URL: "https://mail.example.com" }).baseUrl).toBe(
      "https://mail.example.com",
    );
  });

  it("says at startup where mail goes and who it is sent as", () => {
    expect(sendingLine(readSettings({}))).toBe(
      "Mail goes nowhere (MAILPULSE_SMTP_URL is unset: messages are logged, not delivered); senders outside a " +
        "verified sending domain are sent as ...@send.localhost with Reply-To set to them (the platform domain " +
        "localhost comes from MAILPULSE_BASE_URL: set MAILPULSE_PLATFORM_DOMAIN to a domain you own, or " +
        "MAILPULSE_FROM_ADDRESSES=as-given when your relay sends for your own domains)",
    );
    const relay = {
      MAILPULSE_SMTP_URL: "smtp://user:secret@relay.example.com:587",
      MAILPULSE_BASE_URL: "https://mail.example.com",
    };
    expect(sendingLine(readSettings({ ...relay, MAILPULSE_PLATFORM_DOMAIN: "example.com" }))).toBe(
      "Mail goes through smtp://user:***@relay.example.com:587; senders outside a verified sending domain are " +
        "sent as ...@send.example.com with Reply-To set to them",
    );
    expect(sendingLine(readSettings({ ...relay, MAILPULSE_FROM_ADDRESSES: "as-given" }))).toMatch(
      /; From addresses are sent as given \(MAILPULSE_FROM_ADDRESSES=as-given\)/,
    );
  });
});
