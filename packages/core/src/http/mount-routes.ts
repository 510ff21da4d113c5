import type { AnyRoute } from "./route.js";

/** The base path when `MailPulseOptions.basePath` is not given. */
export const defaultBasePath = "/api";

/**
 * Checks and normalises a base path: `/api/` -> `/api`. It must start with `/` and name at least
 * one segment: the API lives under a path of its own, so the host's other paths stay the host's.
 */
export function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, "");
  if (!/^(\/[^/?#\s]+)+$/.test(trimmed)) {
    throw new TypeError(`basePath must be a path such as "/api" or "/v1/mail" (got "${basePath}")`);
  }
  return trimmed;
}

/**
 * The route table under `basePath`: the same routes with the absolute paths the router matches
 * (`/campaigns/:id` -> `/api/campaigns/:id`). Routes are declared relative, so the base path is
 * stated once, here.
 */
export function mountRoutes(routes: readonly AnyRoute[], basePath: string): AnyRoute[] {
  return routes.map((route) => ({ ...route, path: `${basePath}${route.path}` as AnyRoute["path"] }));
}

/** `/t/o/:id` with `{ id: "abc" }` -> `/t/o/abc`, each value percent-encoded. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`No value for the path parameter ":${name}" of ${path}`);
    return encodeURIComponent(value);
  });
}
