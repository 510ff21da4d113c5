import { createMailPulse, type MailPulse, memoryProvider, type Storage, smtpProvider } from "@mailpulse/core";
import type { Settings } from "./settings.js";

/** The MailPulse instance of the standalone server, configured from its settings. */
export function createInstance(settings: Settings, storage: Storage): MailPulse {
  const mailProvider = settings.smtpUrl
    ? smtpProvider({ url: settings.smtpUrl })
    : memoryProvider({
        log: (line) => console.log(`${line} (MAILPULSE_SMTP_URL is unset: nothing was delivered)`),
        // Only the log line is useful here; kept messages would grow the server's memory forever.
        keep: 0,
      });
  const { maxCampaigns } = settings;
  return createMailPulse({
    storage,
    baseUrl: settings.baseUrl,
    allowPrivateBaseUrl: settings.allowPrivateBaseUrl,
    platformDomain: settings.platformDomain,
    sending: { fromAddresses: settings.fromAddresses },
    mailProvider,
    limits: () => (maxCampaigns === undefined ? {} : { maxCampaigns }),
    domains: { dnsServers: settings.dnsServers },
    encryptionKey: settings.encryptionKey,
    webhooks: {
      allowPrivateNetworks: settings.webhookAllowPrivate,
      ...(settings.webhookCa === undefined ? {} : { ca: settings.webhookCa }),
    },
    ...(settings.rateLimitPerMinute > 0
      ? { rateLimit: { limit: settings.rateLimitPerMinute, windowMs: 60_000 } }
      : {}),
    // Fastify is left at its default (the socket's address); MailPulse applies the proxy setting.
    tracking: { trustProxy: settings.trustProxy },
    ...(settings.snsTopicArns ? { sns: { topicArns: settings.snsTopicArns } } : {}),
  });
}
