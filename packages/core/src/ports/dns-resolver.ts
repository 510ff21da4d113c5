/**
 * The DNS port: the three lookups domain verification needs.
 *
 * Contract of every method:
 * - resolves the records of that type at `name` (CNAME targets and MX exchanges without a
 *   trailing dot, as DNS servers return them);
 * - resolves `[]` when the name does not exist (NXDOMAIN) or has no record of that type (NODATA):
 *   "no record" is an answer, not a failure;
 * - rejects with a {@link DnsLookupError} when no answer came (timeout, refused, server failure),
 *   within the resolver's per-query timeout.
 */
export interface DnsResolver {
  /** CNAME targets at `name`. */
  resolveCname(name: string): Promise<string[]>;
  /** TXT records at `name`, each as its character strings (join them to read the record). */
  resolveTxt(name: string): Promise<string[][]>;
  /** MX records at `name`. */
  resolveMx(name: string): Promise<Array<{ exchange: string; priority: number }>>;
}

/** A lookup that got no answer; the message says what was asked and why it failed. */
export class DnsLookupError extends Error {
  override readonly name = "DnsLookupError";
  constructor(
    message: string,
    /** `timeout` when no answer came in time, `failed` for any other error (refused, SERVFAIL...). */
    readonly reason: "timeout" | "failed",
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
