import { Resolver } from "node:dns/promises";
import { DnsLookupError, type DnsResolver } from "../ports/dns-resolver.js";

/** Options of {@link nodeDnsResolver}. */
export interface NodeDnsResolverOptions {
  /**
   * DNS servers to ask, as `ip` or `ip:port` (`[v6]:port` for IPv6 with a port). Default: the
   * system's resolvers (`/etc/resolv.conf`).
   */
  servers?: readonly string[];
  /** Milliseconds one query may take before it fails with a timeout. Default 5000. */
  timeoutMs?: number;
}

/** Default per-query timeout: 5 s. */
export const defaultDnsTimeoutMs = 5000;

/** Answers that mean "no such record" rather than "no answer" (see the port's contract). */
const noRecordCodes = new Set(["ENOTFOUND", "ENODATA", "NOTFOUND", "NODATA"]);

/**
 * The default {@link DnsResolver}: `node:dns/promises` `Resolver`, one attempt per query, bounded
 * by `timeoutMs`.
 *
 * Each query gets its own `Resolver` so a timed-out query can be cancelled without cancelling
 * other queries in flight. c-ares' own timeout grows between retries and is per server, so a
 * timer bounds the whole query as well: the answer comes within `timeoutMs` even when a server
 * never answers.
 */
export function nodeDnsResolver(options: NodeDnsResolverOptions = {}): DnsResolver {
  const timeoutMs = options.timeoutMs ?? defaultDnsTimeoutMs;
  const servers = options.servers ? [...options.servers] : undefined;

  async function query<T>(type: string, name: string, run: (resolver: Resolver) => Promise<T>): Promise<T> {
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    if (servers?.length) resolver.setServers(servers);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        resolver.cancel();
        reject(
          new DnsLookupError(`DNS lookup of ${type} ${name} timed out after ${timeoutMs} ms`, "timeout"),
        );
      }, timeoutMs);
    });
    try {
      return await Promise.race([run(resolver), timedOut]);
    } catch (error) {
      if (error instanceof DnsLookupError) throw error;
      const code = (error as { code?: string }).code ?? "";
      if (noRecordCodes.has(code)) return [] as T;
      if (code === "ETIMEOUT" || code === "ECANCELLED" || code === "ECANCELED") {
        throw new DnsLookupError(`DNS lookup of ${type} ${name} timed out after ${timeoutMs} ms`, "timeout", {
          cause: error,
        });
      }
      throw new DnsLookupError(`DNS lookup of ${type} ${name} failed (${code || String(error)})`, "failed", {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    resolveCname: (name) => query("CNAME", name, (resolver) => resolver.resolveCname(name)),
    resolveTxt: (name) => query("TXT", name, (resolver) => resolver.resolveTxt(name)),
    resolveMx: (name) => query("MX", name, (resolver) => resolver.resolveMx(name)),
  };
}
