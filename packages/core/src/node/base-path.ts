import type { MailPulseHttp } from "./types.js";

/**
 * The path part of a request target, without query or fragment. Absolute-form targets
 * (`GET http://host/path HTTP/1.1`, which proxies send) are reduced to their path.
 */
export function pathnameOf(target: string | undefined): string {
  if (target === undefined || target === "") return "/";
  if (!target.startsWith("/")) {
    try {
      return new URL(target).pathname;
    } catch {
      return "/";
    }
  }
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

/**
 * Whether `pathname` is `basePath` itself or lies below it. `/api/x` and `/api` match `/api`;
 * `/apiary` does not, so a host's own routes that merely share the prefix stay with the host.
 */
export function isUnderBasePath(pathname: string, basePath: string): boolean {
  return pathname === basePath || pathname.startsWith(`${basePath}/`);
}

/**
 * Whether MailPulse answers `pathname` (relative to the mount point): under its base path and a
 * path of its route table, whatever the method. An instance without `servesPath` (a test double)
 * claims its whole base path.
 */
export function isMailPulsePath(mailpulse: MailPulseHttp, pathname: string): boolean {
  if (!isUnderBasePath(pathname, mailpulse.basePath)) return false;
  return mailpulse.servesPath === undefined || mailpulse.servesPath(pathname);
}
