import { isIP } from "node:net";
import { privateBaseUrlProblem } from "./http/base-url-check.js";
import type { Logger } from "./logger.js";
import { clientAddressResolver } from "./measurement/client-address.js";
import type { MailPulseOptions } from "./options.js";
import type { FromAddressPolicy } from "./services/sending/sender-rule.js";

/** The stores `createMailPulse` reads; a storage without one of them is not a MailPulse storage. */
const requiredStores = ["organizations", "apiKeys", "campaigns", "emails", "tracking", "stats"] as const;

/**
 * Checks `createMailPulse`'s options before anything is wired, so a mistake fails at start with a
 * message that says what to pass, instead of later as a bare `Invalid URL`, tracking URLs without
 * a scheme or a 500 on the first request. Throws a `TypeError` (a programming error, not a client's).
 */
export function assertValidOptions(options: MailPulseOptions): void {
  const fail = (message: string): never => {
    throw new TypeError(`createMailPulse: ${message}`);
  };
  if (typeof options !== "object" || options === null) fail("pass an options object ({ storage, baseUrl })");

  const storage = options.storage as unknown as Record<string, unknown> | undefined;
  if (typeof storage !== "object" || storage === null) {
    fail("`storage` is required, e.g. sqliteStorage({ filename }) after `await storage.migrate()`");
  }
  for (const store of requiredStores) {
    if (typeof storage?.[store] !== "object" || storage[store] === null) {
      fail(`\`storage.${store}\` is missing: pass a MailPulse storage (sqliteStorage, postgresStorage)`);
    }
  }

  const baseUrl = options.baseUrl as unknown;
  const example = '"https://mail.example.com"';
  if (typeof baseUrl !== "string") fail(`\`baseUrl\` is required: the API's public address, e.g. ${example}`);
  let parsed: URL | undefined;
  try {
    parsed = new URL(baseUrl as string);
  } catch {
    fail(`\`baseUrl\` must be an absolute http(s) URL such as ${example} (got ${JSON.stringify(baseUrl)})`);
  }
  // `new URL("localhost:3000")` parses, with "localhost:" as its scheme.
  if (parsed?.protocol !== "http:" && parsed?.protocol !== "https:") {
    fail(`\`baseUrl\` must be an absolute http(s) URL such as ${example} (got ${JSON.stringify(baseUrl)})`);
  }
  if (parsed?.search || parsed?.hash) {
    fail(`\`baseUrl\` must not carry a query or fragment (got ${JSON.stringify(baseUrl)})`);
  }
  const privateBaseUrl = privateBaseUrlProblem(options);
  if (privateBaseUrl !== undefined) fail(privateBaseUrl);

  if (options.platformDomain !== undefined && !/^[^\s/:@]+\.?[^\s/:@]*$/.test(options.platformDomain)) {
    fail(
      `\`platformDomain\` must be a host name such as "mail.example.com" (got ${JSON.stringify(options.platformDomain)})`,
    );
  }

  const logger = options.logger as unknown as Record<string, unknown> | undefined;
  if (logger !== undefined && (typeof logger?.info !== "function" || typeof logger.error !== "function")) {
    fail(
      "`logger` must have `info` and `error` methods: console-style (message first) or pino-style such as Fastify's `app.log`",
    );
  }

  const whole = (name: string, value: number | undefined, min: number) => {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < min)) {
      fail(`\`${name}\` must be a whole number of at least ${min} (got ${String(value)})`);
    }
  };
  whole("maxBodyBytes", options.maxBodyBytes, 1);
  whole("maxSendBodyBytes", options.maxSendBodyBytes, 1);
  whole("campaignDetailEmailLimit", options.campaignDetailEmailLimit, 1);
  whole("sending.staleAfterMs", options.sending?.staleAfterMs, 0);
  whole("sending.idempotencyWaitMs", options.sending?.idempotencyWaitMs, 0);
  const fromAddresses = options.sending?.fromAddresses;
  if (fromAddresses !== undefined && fromAddresses !== "rewrite-unverified" && fromAddresses !== "as-given") {
    fail(
      `\`sending.fromAddresses\` must be "rewrite-unverified" or "as-given" (got ${JSON.stringify(fromAddresses)})`,
    );
  }
  whole("campaignDetailLinkLimit", options.campaignDetailLinkLimit, 1);
  whole("inbound.logRetentionDays", options.inbound?.logRetentionDays, 1);
  whole("inbound.maxLogRows", options.inbound?.maxLogRows, 1);
  whole("webhooks.concurrencyPerWebhook", options.webhooks?.concurrencyPerWebhook, 1);
  whole("domains.maxPerOrganization", options.domains?.maxPerOrganization, 1);
  const tracking = options.tracking ?? {};
  whole("tracking.batchSize", tracking.batchSize, 1);
  whole("tracking.queueSize", tracking.queueSize, 1);
  whole("tracking.cacheSize", tracking.cacheSize, 0);
  if (tracking.acknowledge !== undefined && !["after-commit", "immediately"].includes(tracking.acknowledge)) {
    fail(
      `\`tracking.acknowledge\` must be "after-commit" or "immediately" (got ${JSON.stringify(tracking.acknowledge)})`,
    );
  }
  if (tracking.trustProxy !== undefined) {
    try {
      clientAddressResolver(tracking.trustProxy);
    } catch (error) {
      fail(`\`tracking.trustProxy\`: ${(error as Error).message}`);
    }
  }
  if (tracking.ipAddresses !== undefined && !["truncated", "full", "none"].includes(tracking.ipAddresses)) {
    fail(
      `\`tracking.ipAddresses\` must be "truncated", "full" or "none" (got ${JSON.stringify(tracking.ipAddresses)})`,
    );
  }
  const rateLimit = options.rateLimit;
  if (rateLimit !== undefined) {
    whole("rateLimit.limit", rateLimit.limit, 1);
    whole("rateLimit.windowMs", rateLimit.windowMs, 1000);
    whole("rateLimit.trackingPerIp.limit", rateLimit.trackingPerIp?.limit, 1);
    whole("rateLimit.trackingPerIp.windowMs", rateLimit.trackingPerIp?.windowMs, 1000);
    const store = rateLimit.store;
    if (
      store !== undefined &&
      store !== "storage" &&
      store !== "memory" &&
      !(typeof store === "object" && store?.redis)
    ) {
      fail('`rateLimit.store` must be "storage", "memory" or { redis: <client> }');
    }
  }
  whole("deliverability.softBounceLimit", options.deliverability?.softBounceLimit, 1);
  whole("deliverability.softBounceWindowDays", options.deliverability?.softBounceWindowDays, 1);
  whole("domains.dnsTimeoutMs", options.domains?.dnsTimeoutMs, 1);
  whole("domains.recheckIntervalMs", options.domains?.recheckIntervalMs, 1);
  const sns = options.sns;
  if (sns !== undefined) {
    const arns = sns?.topicArns as unknown;
    if (
      !Array.isArray(arns) ||
      arns.length === 0 ||
      !arns.every(
        (arn) => typeof arn === "string" && /^arn:aws[\w-]*:sns:[\w-]+:\d{12}:[\w-]+(?:\.fifo)?$/.test(arn),
      )
    ) {
      fail(
        '`sns.topicArns` must list the SNS topic ARNs to accept, e.g. ["arn:aws:sns:us-east-1:123456789012:ses-feedback"]',
      );
    }
  }
}

/**
 * Says which sender rule is in force when it may surprise: with `fromAddresses: "as-given"`, that
 * every `From` goes out unchanged; else when every unverified sender would be rewritten to a
 * domain no receiving server accepts mail from (`...@send.localhost`, `...@send.127.0.0.1`): fine
 * on a laptop, a surprise in production. Called once by `start()`: servers call it, one-shot
 * scripts such as the CLI do not, so their output stays clean.
 */
export function warnAboutPlatformDomain(
  platformDomain: string,
  logger: Logger,
  fromAddresses: FromAddressPolicy = "rewrite-unverified",
): void {
  if (fromAddresses === "as-given") {
    logger.info(
      'MailPulse: `From` addresses are sent as given (sending.fromAddresses: "as-given"): your mail relay must be ' +
        "allowed to send for every sender's domain (SPF, DKIM), or receiving servers will refuse the mail.",
    );
    return;
  }
  const host = platformDomain.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || isIP(host) !== 0) {
    logger.info(
      `MailPulse: the platform domain is ${JSON.stringify(platformDomain)}, so unverified senders are rewritten to ` +
        `...@send.${platformDomain}, which receiving servers refuse. Set \`platformDomain\` (standalone: ` +
        "MAILPULSE_PLATFORM_DOMAIN) to a domain you own before sending for real.",
    );
  }
}

/**
 * Says when one-click unsubscribe URLs (`List-Unsubscribe`, built on `baseUrl`) would be plain
 * `http://` on a host other than loopback: RFC 8058 wants HTTPS, and mailbox providers ignore an
 * `http` one-click URL. The header is still sent (docs/deliverability.md). Called once by `start()`.
 */
export function warnAboutPlainHttpUnsubscribe(baseUrl: string, logger: Logger): void {
  const url = new URL(baseUrl);
  if (url.protocol !== "http:") return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopback =
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "::1" ||
    /^127\.\d+\.\d+\.\d+$/.test(host);
  if (loopback) return;
  logger.info(
    `MailPulse: baseUrl ${JSON.stringify(baseUrl)} is http://, so the one-click unsubscribe URLs in List-Unsubscribe ` +
      "headers are too; RFC 8058 requires HTTPS and mailbox providers ignore an http one. Serve MailPulse over HTTPS " +
      "and set `baseUrl` (standalone: MAILPULSE_BASE_URL) to the https:// address.",
  );
}
