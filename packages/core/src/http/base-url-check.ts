import { isIP } from "node:net";
import type { Logger } from "../logger.js";
import type { MailProvider } from "../ports/mail-provider.js";
import { isBlockedAddress } from "../webhooks/address-policy.js";

/**
 * Why a reader's mail client could not reach `hostname`, in words for an error message (`a
 * loopback address`, `"localhost"`), or `undefined` for a host that may be public. Judged on the
 * name alone, without DNS, so it costs nothing at startup: `localhost` and names under it, the
 * `.local` (mDNS) and `.internal` (RFC 9476-style private use) names, single-label names (a
 * container's service name), and IP literals outside the public unicast ranges.
 */
export function unreachableHostReason(hostname: string): string | undefined {
  const host = hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();
  if (isIP(host) !== 0) {
    const range = isBlockedAddress(host);
    return range === null ? undefined : `a ${range} address`;
  }
  if (host === "localhost" || host.endsWith(".localhost")) return `"${host}"`;
  if (host.endsWith(".local") || host.endsWith(".internal")) return `a name of the local network ("${host}")`;
  if (!host.includes(".")) return `a name without a domain ("${host}")`;
  return undefined;
}

/**
 * Refuses a real mail provider with a `baseUrl` nobody outside this machine or network can reach:
 * every tracking link and open pixel in the mail it sends would point there, and the mail would
 * go out without a word (issue 30). Providers that only capture (`capturesOnly`) and
 * `allowPrivateBaseUrl: true` (mail read on the same network, a staging relay) pass. Returns the
 * message for `createMailPulse`'s TypeError, or `undefined` when the options are fine.
 */
export function privateBaseUrlProblem(options: {
  baseUrl: string;
  mailProvider?: MailProvider;
  allowPrivateBaseUrl?: boolean;
}): string | undefined {
  if (options.mailProvider === undefined || options.mailProvider.capturesOnly === true) return undefined;
  if (options.allowPrivateBaseUrl === true) return undefined;
  const reason = unreachableHostReason(new URL(options.baseUrl).hostname);
  if (reason === undefined) return undefined;
  return (
    `\`baseUrl\` ${JSON.stringify(options.baseUrl)} is ${reason}, yet \`mailProvider\` delivers real mail: ` +
    "the tracking links and open pixel in every message would point there, and readers could not reach them. " +
    "Set `baseUrl` to the address readers reach this API at (standalone: MAILPULSE_BASE_URL), or pass " +
    "`allowPrivateBaseUrl: true` (standalone: MAILPULSE_ALLOW_PRIVATE_BASE_URL=true) when the mail is only read on this network."
  );
}

/**
 * The check behind `MailPulseHttp.checkMountPath`: tracking URLs are `{baseUrl}{basePath}/t/...`,
 * so the adapter's mount point must be `baseUrl`'s path. When it is not (`app.use("/mail", ...)`
 * with a `baseUrl` at the root), every pixel and link in sent mail is a 404: say so once per
 * mount point, as an error line, naming both and the fix. A proxy that rewrites the path in front
 * of the host is the one setup where the line is expected; the message says so.
 */
export function createMountPathCheck(baseUrl: string, basePath: string, logger: Logger) {
  const expected = normalizePath(new URL(baseUrl).pathname);
  const reported = new Set<string>();
  return (mountPath: string, where: string): void => {
    const mounted = normalizePath(mountPath);
    if (mounted === expected || reported.has(mounted)) return;
    reported.add(mounted);
    logger.error(
      `MailPulse: ${where} serves the API at ${JSON.stringify(`${mounted}${basePath}`)}, but \`baseUrl\` ` +
        `${JSON.stringify(baseUrl)} puts tracking links and pixels at ${JSON.stringify(`${expected}${basePath}`)}: ` +
        `in sent mail they would all be 404s. Mount the adapter at ${JSON.stringify(expected || "/")} or set ` +
        `\`baseUrl\` to "${new URL(baseUrl).origin}${mounted}". (Only a proxy that rewrites the path between ` +
        "the two makes this setup work; then this line is expected.)",
    );
  };
}

/** `/mail/` and `/mail` are one mount point; the root is the empty path. */
function normalizePath(path: string): string {
  return path.replace(/\/+$/, "");
}
