/** `.` and `..`, written plainly or percent-encoded in any letter case (`%2e`, `.%2E`, ...). */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * Whether a raw request path (before any URL parsing) has a `.` or `..` segment. The WHATWG URL
 * parser resolves them, `%2e%2e` included, so `/api/t/%2e%2e/stats` would be routed as
 * `/api/stats` after the adapter matched it as a tracking path: a proxy rule or host middleware
 * that looked at the raw path and the core would disagree about which route was asked for.
 */
export function hasDotSegment(rawPathname: string): boolean {
  return rawPathname.split("/").some((segment) => DOT_SEGMENT.test(segment));
}
