/**
 * A query route's input as the request carried it (`RouteContext.rawInput`): the query record,
 * read by a list route that links to its next page with the parameters as sent rather than as
 * parsed. Values that are not strings (no query route has any) are left out.
 */
export function sentQuery(rawInput: unknown): Record<string, string | undefined> {
  if (rawInput === null || typeof rawInput !== "object") return {};
  return Object.fromEntries(Object.entries(rawInput).filter(([, value]) => typeof value === "string"));
}
