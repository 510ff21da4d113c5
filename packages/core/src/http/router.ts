import { MailPulseError } from "../errors.js";
import { hasControlCharacter } from "../util/control-characters.js";
import type { AnyRoute, HttpMethod } from "./route.js";

/** A route matched against a request, with its path parameters (see {@link decodePathParams}). */
export interface RouteMatch {
  route: AnyRoute;
  params: Record<string, string>;
}

interface CompiledRoute {
  route: AnyRoute;
  segments: string[];
}

function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment.length > 0);
}

function decodeSegment(segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    throw new MailPulseError("BAD_REQUEST", "Malformed percent-encoding in the URL path");
  }
  // Refused here, once for every route and storage: PostgreSQL rejects NUL in text with an
  // error (a 500 and a logged stack per request), where SQLite simply finds nothing.
  if (hasControlCharacter(decoded)) {
    throw new MailPulseError("NOT_FOUND", "Not found: no id holds control characters");
  }
  return decoded;
}

/**
 * Percent-decodes a match's parameters in place. BAD_REQUEST for a malformed escape; NOT_FOUND
 * for a value holding a control character (`%00`), which no stored id can equal.
 */
export function decodePathParams(params: Record<string, string>): Record<string, string> {
  for (const key of Object.keys(params)) params[key] = decodeSegment(params[key]!);
  return params;
}

/**
 * Matches paths against the route table. Throws NOT_FOUND when no route has the path and
 * METHOD_NOT_ALLOWED (with an `Allow` header) when routes have the path but not the method.
 */
export function createRouter(routes: readonly AnyRoute[]) {
  const compiled: CompiledRoute[] = routes.map((route) => ({ route, segments: splitPath(route.path) }));

  function matchPath(entry: CompiledRoute, segments: string[]): Record<string, string> | undefined {
    if (entry.segments.length !== segments.length) return undefined;
    const params: Record<string, string> = {};
    for (let index = 0; index < segments.length; index++) {
      const pattern = entry.segments[index]!;
      const actual = segments[index]!;
      if (pattern.startsWith(":")) params[pattern.slice(1)] = actual;
      else if (pattern !== actual) return undefined;
    }
    return params;
  }

  /** The first route with this path and method, with raw (still percent-encoded) parameters. */
  function search(wanted: HttpMethod, segments: string[], allowed?: Set<string>): RouteMatch | undefined {
    for (const entry of compiled) {
      const params = matchPath(entry, segments);
      if (!params) continue;
      if (entry.route.method === wanted) return { route: entry.route, params };
      allowed?.add(entry.route.method);
      if (entry.route.method === "GET") allowed?.add("HEAD");
    }
    return undefined;
  }

  /**
   * Like `search`, and when nothing matches a path ending in `/`, matches it again with an empty
   * last segment: `/t/o/` reaches `/t/o/:id` with an empty id (whose route decides the answer:
   * the pixel's is its GIF) instead of being no route at all. Paths that match as they are
   * (`/campaigns/` is the list) keep their route.
   */
  function searchWithTrailingSlash(
    wanted: HttpMethod,
    pathname: string,
    allowed?: Set<string>,
  ): RouteMatch | undefined {
    const segments = splitPath(pathname);
    const found = search(wanted, segments, allowed);
    if (found || !pathname.endsWith("/") || allowed?.size) return found;
    return search(wanted, [...segments, ""], allowed);
  }

  return {
    /**
     * The route for `method` and `pathname` (HEAD falls back to GET), with its parameters still
     * percent-encoded: `parsePathParams` decodes and validates them with the route's answer to
     * invalid ones.
     */
    match(method: string, pathname: string): RouteMatch {
      const allowed = new Set<string>();
      const found = searchWithTrailingSlash(wantedMethod(method), pathname, allowed);
      if (found) return found;
      if (allowed.size === 0) throw new MailPulseError("NOT_FOUND", `No route for ${method} ${pathname}`);
      const allow = [...allowed].sort().join(", ");
      throw new MailPulseError("METHOD_NOT_ALLOWED", `Method ${method} is not allowed here; use ${allow}`, {
        headers: { allow },
      });
    },
    /**
     * The route `match` would choose, or `undefined`; never throws. Its parameters are still
     * percent-encoded: {@link decodePathParams} decodes them (and throws for a malformed path).
     */
    find(method: string, pathname: string): RouteMatch | undefined {
      return searchWithTrailingSlash(wantedMethod(method), pathname);
    },
    /** Whether some route has this path, whatever its method (so `match` would not answer 404). */
    hasPath(pathname: string): boolean {
      const segments = splitPath(pathname);
      return compiled.some((entry) => matchPath(entry, segments) !== undefined);
    },
  };
}

function wantedMethod(method: string): HttpMethod {
  return (method === "HEAD" ? "GET" : method) as HttpMethod;
}

/** Matches requests against a route table (see {@link createRouter}). */
export type Router = ReturnType<typeof createRouter>;
