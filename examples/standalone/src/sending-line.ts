import { redactUrl, type Settings } from "./settings.js";

/**
 * The startup line that says where mail goes and who it is sent as, so an operator sees before
 * the first send what issue 30 found only in delivered mail: nothing delivered without
 * `MAILPULSE_SMTP_URL`, senders rewritten to `send.<platformDomain>` (and a platform domain taken
 * from the base URL until `MAILPULSE_PLATFORM_DOMAIN` is set), or `From` sent as given.
 */
export function sendingLine(
  settings: Pick<Settings, "smtpUrl" | "fromAddresses" | "platformDomain" | "platformDomainSet">,
): string {
  const relay =
    settings.smtpUrl === undefined
      ? "nowhere (MAILPULSE_SMTP_URL is unset: messages are logged, not delivered)"
      : `through ${redactUrl(settings.smtpUrl)}`;
  if (settings.fromAddresses === "as-given") {
    return `Mail goes ${relay}; From addresses are sent as given (MAILPULSE_FROM_ADDRESSES=as-given): the relay must be allowed to send for every sender's domain`;
  }
  const rule = `senders outside a verified sending domain are sent as ...@send.${settings.platformDomain} with Reply-To set to them`;
  const advice = settings.platformDomainSet
    ? ""
    : ` (the platform domain ${settings.platformDomain} comes from MAILPULSE_BASE_URL: set MAILPULSE_PLATFORM_DOMAIN to a domain you own, or MAILPULSE_FROM_ADDRESSES=as-given when your relay sends for your own domains)`;
  return `Mail goes ${relay}; ${rule}${advice}`;
}
