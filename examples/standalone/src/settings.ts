import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { isAbsolute, resolve } from "node:path";
import {
  addressRanges,
  decodeEncryptionKey,
  type FromAddressPolicy,
  unreachableHostReason,
} from "@mailpulse/core";

/**
 * The standalone server's settings, read from the environment (see the README's table). Only
 * settings that act are read: a setting for a feature arrives with the feature (DNS servers and
 * the encryption key came with domain verification, private webhook targets with webhook
 * delivery, a rate limit with rate limiting), so none is accepted and silently ignored.
 */
export interface Settings {
  port: number;
  host: string;
  /** Absolute path of the SQLite file; unused when `databaseUrl` is set. */
  sqlitePath: string;
  /** PostgreSQL connection string; when set, PostgreSQL is used instead of SQLite. */
  databaseUrl: string | undefined;
  baseUrl: string;
  /**
   * `MAILPULSE_ALLOW_PRIVATE_BASE_URL=true`: send real mail (`MAILPULSE_SMTP_URL`) although
   * `MAILPULSE_BASE_URL` is a loopback or private address (mail read on this network only).
   */
  allowPrivateBaseUrl: boolean;
  platformDomain: string;
  /** Whether `MAILPULSE_PLATFORM_DOMAIN` was set; else the domain is `baseUrl`'s host, said at startup. */
  platformDomainSet: boolean;
  /**
   * `MAILPULSE_FROM_ADDRESSES`: `rewrite-unverified` (default, the spec's rule) or `as-given`
   * (every `From` goes out unchanged: a single-tenant server whose relay may send for its domains).
   */
  fromAddresses: FromAddressPolicy;
  maxCampaigns: number | undefined;
  smtpUrl: string | undefined;
  /** `MAILPULSE_DNS_SERVERS`: DNS servers for domain verification; undefined = the system's. */
  dnsServers: string[] | undefined;
  /** `MAILPULSE_ENCRYPTION_KEY`: 32 bytes, base64; encrypts DKIM private keys and webhook secrets at rest. */
  encryptionKey: string | undefined;
  /** `MAILPULSE_WEBHOOK_ALLOW_PRIVATE=true`: webhooks may target loopback and private addresses (development). */
  webhookAllowPrivate: boolean;
  /**
   * `MAILPULSE_WEBHOOK_CA_FILE`: a PEM file of CA certificates trusted for webhook receivers,
   * besides the system's (a receiver with a self-signed or private-CA certificate). Its contents.
   */
  webhookCa: string | undefined;
  /**
   * `MAILPULSE_REQUEST_TIMEOUT` (seconds, default 30): the most a client may take to send a whole
   * request, head and body; past it the server answers 408 and closes the connection.
   */
  requestTimeoutMs: number;
  /**
   * `MAILPULSE_RATE_LIMIT`: requests per minute and API key (default 600; `0` turns the limit
   * off), counted in the database so every server process on it shares the quota.
   */
  rateLimitPerMinute: number;
  /** `MAILPULSE_HEADERS_TIMEOUT` (seconds, default 10, at most the request timeout): the same for the head. */
  headersTimeoutMs: number;
  /**
   * `MAILPULSE_TRUST_PROXY`: which proxies' `X-Forwarded-For` to believe for the client address
   * opens and clicks are judged on: `false` (default), `true`, a hop count, or CIDRs, comma-separated.
   */
  trustProxy: boolean | number | string[];
  /**
   * `MAILPULSE_SNS_TOPIC_ARNS`: comma-separated SNS topic ARNs whose Amazon SES notifications
   * `POST /api/sns` accepts (docs/deliverability.md); unset turns the route off (404).
   */
  snsTopicArns: string[] | undefined;
  /**
   * `MAILPULSE_INBOUND_SMTP_PORT`: the port of the inbound SMTP receiver (bounces, complaints,
   * mailto unsubscribes at `send.<domain>`); off when unset. docs/operations.md puts it on port 25.
   */
  inboundSmtpPort: number | undefined;
  /** `MAILPULSE_INBOUND_SMTP_HOST`: the address it listens on; default `HOST`'s. */
  inboundSmtpHost: string;
}

/** A setting that cannot be used; the message names it and says what is accepted. */
export class SettingsError extends Error {
  override readonly name = "SettingsError";
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, { min, max }: { min: number; max: number }): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new SettingsError(`${name}=${raw} is invalid: expected a whole number from ${min} to ${max}`);
  }
  return value;
}

function boolean(env: Env, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw || raw === "false") return false;
  if (raw === "true") return true;
  throw new SettingsError(`${name}=${env[name]} is invalid: expected true or false`);
}

/**
 * A URL as it may appear in a message: the password of `scheme://user:password@host` replaced by
 * `***`, also when the URL does not parse (the message is printed and lands in logs).
 */
export function redactUrl(raw: string): string {
  return raw.replace(/^([^:/?#]+:\/\/[^/?#@]*?:)[^/?#]*@/, "$1***@");
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new SettingsError(`${name} is invalid: "${redactUrl(raw)}" is not a URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new SettingsError(
      `${name} is invalid: expected a ${protocols.join(" or ")} URL, got "${parsed.protocol}"`,
    );
  }
  return raw;
}

function dnsServers(env: Env): string[] | undefined {
  const raw = env.MAILPULSE_DNS_SERVERS?.trim();
  if (!raw) return undefined;
  const servers = raw.split(",").map((entry) => entry.trim());
  for (const server of servers) {
    // Accept "ip" or "ip:port" / "[ipv6]:port", the forms node:dns Resolver#setServers takes.
    const host = server.replace(/^\[(.*)\](?::\d+)?$/, "$1").replace(/^([\d.]+):\d+$/, "$1");
    if (!isIP(host)) {
      throw new SettingsError(
        `MAILPULSE_DNS_SERVERS is invalid: "${server}" is not an IP address (comma-separated)`,
      );
    }
  }
  return servers;
}

function trustProxy(env: Env): boolean | number | string[] {
  const raw = env.MAILPULSE_TRUST_PROXY?.trim();
  if (!raw || raw.toLowerCase() === "false") return false;
  if (raw.toLowerCase() === "true") return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const cidrs = raw.split(",").map((entry) => entry.trim());
  try {
    addressRanges(cidrs);
  } catch (error) {
    throw new SettingsError(
      `MAILPULSE_TRUST_PROXY is invalid: ${(error as Error).message}; expected true, false, a number of hops or comma-separated CIDRs`,
    );
  }
  return cidrs;
}

function snsTopicArns(env: Env): string[] | undefined {
  const raw = env.MAILPULSE_SNS_TOPIC_ARNS?.trim();
  if (!raw) return undefined;
  const arns = raw.split(",").map((entry) => entry.trim());
  for (const arn of arns) {
    if (!/^arn:aws[\w-]*:sns:[\w-]+:\d{12}:[\w-]+(?:\.fifo)?$/.test(arn)) {
      throw new SettingsError(
        `MAILPULSE_SNS_TOPIC_ARNS is invalid: "${arn}" is not an SNS topic ARN such as arn:aws:sns:us-east-1:123456789012:ses-feedback`,
      );
    }
  }
  return arns;
}

function encryptionKey(env: Env): string | undefined {
  const raw = env.MAILPULSE_ENCRYPTION_KEY?.trim();
  if (!raw) return undefined;
  try {
    decodeEncryptionKey(raw);
  } catch (error) {
    throw new SettingsError(`MAILPULSE_ENCRYPTION_KEY is invalid: ${(error as Error).message}`);
  }
  return raw;
}

function fromAddresses(env: Env): FromAddressPolicy {
  const raw = env.MAILPULSE_FROM_ADDRESSES?.trim();
  if (!raw) return "rewrite-unverified";
  if (raw === "rewrite-unverified" || raw === "as-given") return raw;
  throw new SettingsError(
    `MAILPULSE_FROM_ADDRESSES=${raw} is invalid: expected rewrite-unverified (the default) or as-given`,
  );
}

function caFile(env: Env, base: string): string | undefined {
  const raw = env.MAILPULSE_WEBHOOK_CA_FILE?.trim();
  if (!raw) return undefined;
  const path = isAbsolute(raw) ? raw : resolve(base, raw);
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (error) {
    throw new SettingsError(`MAILPULSE_WEBHOOK_CA_FILE cannot be read: ${(error as Error).message}`);
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
    throw new SettingsError(`MAILPULSE_WEBHOOK_CA_FILE is invalid: ${path} holds no PEM certificate`);
  }
  return pem;
}

/**
 * Reads and validates the settings. Relative SQLite paths resolve against the folder `npm` was
 * started in (INIT_CWD), so `./data/mailpulse.db` lands beside the README, not in the workspace.
 */
export function readSettings(env: Env = process.env): Settings {
  const port = integer(env, "PORT", { min: 0, max: 65_535 }) ?? 3000;
  const host = env.HOST?.trim() || "127.0.0.1";
  const baseUrl = (url(env, "MAILPULSE_BASE_URL", ["http:", "https:"]) ?? `http://localhost:${port}`).replace(
    /\/+$/,
    "",
  );
  const platformDomainSet = Boolean(env.MAILPULSE_PLATFORM_DOMAIN?.trim());
  const platformDomain = env.MAILPULSE_PLATFORM_DOMAIN?.trim() || new URL(baseUrl).hostname;
  if (!/^[a-z0-9.-]+$/i.test(platformDomain)) {
    throw new SettingsError(`MAILPULSE_PLATFORM_DOMAIN is invalid: "${platformDomain}" is not a domain name`);
  }
  const sqliteSetting = env.MAILPULSE_DATABASE?.trim() || "./data/mailpulse.db";
  const sqlitePath = isAbsolute(sqliteSetting)
    ? sqliteSetting
    : resolve(env.INIT_CWD ?? process.cwd(), sqliteSetting);
  const requestTimeoutMs = (integer(env, "MAILPULSE_REQUEST_TIMEOUT", { min: 1, max: 3600 }) ?? 30) * 1000;
  const headersTimeoutMs = (integer(env, "MAILPULSE_HEADERS_TIMEOUT", { min: 1, max: 3600 }) ?? 10) * 1000;
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new SettingsError(
      `MAILPULSE_HEADERS_TIMEOUT is invalid: ${headersTimeoutMs / 1000} s is longer than the request timeout (${requestTimeoutMs / 1000} s)`,
    );
  }
  const smtpUrl = url(env, "MAILPULSE_SMTP_URL", ["smtp:", "smtps:"]);
  const allowPrivateBaseUrl = boolean(env, "MAILPULSE_ALLOW_PRIVATE_BASE_URL");
  const unreachable = unreachableHostReason(new URL(baseUrl).hostname);
  if (smtpUrl !== undefined && unreachable !== undefined && !allowPrivateBaseUrl) {
    throw new SettingsError(
      `MAILPULSE_BASE_URL is ${baseUrl}${env.MAILPULSE_BASE_URL?.trim() ? "" : " (the default)"}, ${unreachable}, ` +
        "yet MAILPULSE_SMTP_URL delivers real mail: every tracking link and open pixel would point there. Set " +
        "MAILPULSE_BASE_URL to the address readers reach this server at, or MAILPULSE_ALLOW_PRIVATE_BASE_URL=true " +
        "when the mail is only read on this network.",
    );
  }
  return {
    port,
    host,
    sqlitePath,
    databaseUrl: url(env, "DATABASE_URL", ["postgres:", "postgresql:"]),
    baseUrl,
    allowPrivateBaseUrl,
    platformDomain,
    platformDomainSet,
    fromAddresses: fromAddresses(env),
    maxCampaigns: integer(env, "MAILPULSE_MAX_CAMPAIGNS", { min: 0, max: 1_000_000_000 }),
    smtpUrl,
    dnsServers: dnsServers(env),
    encryptionKey: encryptionKey(env),
    webhookAllowPrivate: boolean(env, "MAILPULSE_WEBHOOK_ALLOW_PRIVATE"),
    webhookCa: caFile(env, env.INIT_CWD ?? process.cwd()),
    requestTimeoutMs,
    headersTimeoutMs,
    rateLimitPerMinute: integer(env, "MAILPULSE_RATE_LIMIT", { min: 0, max: 1_000_000_000 }) ?? 600,
    trustProxy: trustProxy(env),
    snsTopicArns: snsTopicArns(env),
    inboundSmtpPort: integer(env, "MAILPULSE_INBOUND_SMTP_PORT", { min: 0, max: 65_535 }),
    inboundSmtpHost: env.MAILPULSE_INBOUND_SMTP_HOST?.trim() || host,
  };
}
