import { createHash } from "node:crypto";
import { DnsLookupError, type DnsResolver } from "../../ports/dns-resolver.js";
import type { DnsRecord } from "./domain-answers.js";
import type { DomainHosts } from "./domain-hosts.js";
import { sameHostName } from "./domain-name.js";

export type { DnsRecord };

/** Status of one DNS record: `not_started` until the first verification. */
export type DnsRecordStatus = "not_started" | "verified" | "failed";

/**
 * The host under the platform's DKIM zone that publishes one domain's key. Derived from the
 * domain's id (not its name) so two organizations with the same pending name never share it.
 */
export function dkimKeyHost(domainId: string, hosts: DomainHosts): string {
  const label = createHash("sha256").update(domainId).digest("hex").slice(0, 20);
  return `k${label}.${hosts.dkimHost}`;
}

/** The three records of a new sending domain, all `not_started`. */
export function sendingDomainRecords(domain: string, domainId: string, hosts: DomainHosts): DnsRecord[] {
  return [
    { type: "MX", name: `send.${domain}`, value: hosts.bounceHost, priority: 10, status: "not_started" },
    {
      type: "TXT",
      name: `send.${domain}`,
      value: `v=spf1 include:${hosts.spfHost} ~all`,
      status: "not_started",
    },
    {
      type: "CNAME",
      name: `${hosts.dkimSelector}._domainkey.${domain}`,
      value: dkimKeyHost(domainId, hosts),
      status: "not_started",
    },
  ];
}

/** The `include:` host of an SPF record value, e.g. `spf.platform.example`. */
function spfIncludeOf(value: string): string | undefined {
  return /\binclude:(\S+)/i.exec(value)?.[1];
}

async function lookUp(record: DnsRecord, resolver: DnsResolver): Promise<string | undefined> {
  const { name, value } = record;
  switch (record.type) {
    case "MX": {
      const found = await resolver.resolveMx(name);
      if (found.some((mx) => sameHostName(mx.exchange, value))) return undefined;
      if (!found.length) return `no MX record at ${name}`;
      return `MX at ${name} points to ${found.map((mx) => mx.exchange).join(", ")}, expected ${value}`;
    }
    case "TXT": {
      const spf = (await resolver.resolveTxt(name))
        .map((parts) => parts.join(""))
        .filter((text) => /^v=spf1(\s|$)/i.test(text));
      const include = spfIncludeOf(value) ?? "";
      if (spf.some((text) => text.split(/\s+/).some((term) => sameHostName(term, `include:${include}`)))) {
        return undefined;
      }
      if (!spf.length) return `no SPF record (TXT "v=spf1 ...") at ${name}`;
      return `SPF record at ${name} does not include ${include}: found "${spf.join('", "')}"`;
    }
    case "CNAME": {
      const found = await resolver.resolveCname(name);
      if (found.some((target) => sameHostName(target, value))) return undefined;
      if (!found.length) return `no CNAME at ${name}`;
      return `CNAME points to ${found.join(", ")}, expected ${value}`;
    }
  }
}

/**
 * Looks one record up and returns it with its new status: `verified` when DNS has the expected
 * value (host names compared without case or trailing dot; an SPF record matches when it includes
 * the platform's SPF host, whatever else it says), otherwise `failed` with what was found.
 * A lookup that got no answer fails the record with the resolver's message. Never throws for DNS.
 */
export async function checkDnsRecord(record: DnsRecord, resolver: DnsResolver): Promise<DnsRecord> {
  const { error: _previous, ...base } = record;
  try {
    const error = await lookUp(record, resolver);
    return error ? { ...base, status: "failed", error } : { ...base, status: "verified" };
  } catch (error) {
    if (error instanceof DnsLookupError) return { ...base, status: "failed", error: error.message };
    throw error;
  }
}
