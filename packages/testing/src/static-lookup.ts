import type { LookupFunction } from "node:net";

/**
 * A resolver with `dns.lookup`'s signature that answers from a table (names without a trailing
 * dot, lowercased), for the webhook options' `lookup`: tests decide what a host resolves to, and
 * may change it between the URL check and the delivery (DNS rebinding). Unknown names fail with
 * ENOTFOUND, as a real resolver would. Pass a `Map` and edit it to rebind.
 */
export function createStaticLookup(table: Map<string, string> | Record<string, string>): LookupFunction {
  const answers = table instanceof Map ? table : new Map(Object.entries(table));
  return ((hostname: string, options: unknown, callback: unknown) => {
    const done = (typeof options === "function" ? options : callback) as (
      error: NodeJS.ErrnoException | null,
      address: string | Array<{ address: string; family: number }>,
      family?: number,
    ) => void;
    const all = typeof options === "object" && options !== null && (options as { all?: boolean }).all;
    const address = answers.get(hostname.toLowerCase());
    queueMicrotask(() => {
      if (address === undefined) {
        const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        error.code = "ENOTFOUND";
        done(error, all ? [] : "");
        return;
      }
      const family = address.includes(":") ? 6 : 4;
      if (all) done(null, [{ address, family }]);
      else done(null, address, family);
    });
  }) as LookupFunction;
}
