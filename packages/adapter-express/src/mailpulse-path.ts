import type { MailPulseHttp } from "@mailpulse/core/node";
import { isUnderBasePath } from "@mailpulse/core/node";

/**
 * Whether MailPulse answers `pathname` (relative to the mount point): a path of its route table,
 * whatever the method. An instance without `servesPath` (a test double) claims its whole base
 * path, as before.
 */
export function isMailPulsePath(mailpulse: MailPulseHttp, pathname: string): boolean {
  if (!isUnderBasePath(pathname, mailpulse.basePath)) return false;
  return mailpulse.servesPath === undefined || mailpulse.servesPath(pathname);
}
