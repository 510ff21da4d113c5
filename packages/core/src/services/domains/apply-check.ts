import type { SendingDomainCheck, SendingDomainRecord } from "../../ports/storage.js";
import type { DnsRecord } from "./dns-records.js";

/** Failed checks in a row after which a verified domain goes back to `pending`. */
export const failedChecksBeforePending = 3;

/**
 * The rule that turns a verification's record results into the domain's new state:
 * - every record verified: `verified` (keeping the first verification time), failures reset;
 * - a pending domain with a failing record stays `pending`;
 * - a verified domain with a failing record stays `verified` until the third failed check in a
 *   row, then goes back to `pending` (sends fall back to the rewritten From). A DNS blip or a
 *   slow resolver must not break an organization's sending on its own.
 */
export function applyCheck(domain: SendingDomainRecord, records: DnsRecord[], now: Date): SendingDomainCheck {
  const allVerified = records.every((record) => record.status === "verified");
  const serialized = JSON.stringify(records);
  if (allVerified) {
    return {
      status: "verified",
      records: serialized,
      verifiedAt: domain.status === "verified" && domain.verifiedAt ? domain.verifiedAt : now,
      lastCheckedAt: now,
      failedChecks: 0,
    };
  }
  if (domain.status !== "verified") {
    return { status: "pending", records: serialized, verifiedAt: null, lastCheckedAt: now, failedChecks: 0 };
  }
  const failedChecks = domain.failedChecks + 1;
  if (failedChecks >= failedChecksBeforePending) {
    return { status: "pending", records: serialized, verifiedAt: null, lastCheckedAt: now, failedChecks };
  }
  // Still verified, with the failing records marked so the organization sees what to fix.
  return {
    status: "verified",
    records: serialized,
    verifiedAt: domain.verifiedAt,
    lastCheckedAt: now,
    failedChecks,
  };
}
