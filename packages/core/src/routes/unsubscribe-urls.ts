import { fillPath } from "../http/mount-routes.js";
import type { UnsubscribeUrlOf } from "../services/sending/unsubscribe-link.js";

/**
 * The path of the one-click unsubscribe route, relative to the base path: `:token` is a
 * recipient token of purpose `unsubscribe` (`services/feedback/recipient-token.ts`). The route
 * (POST unsubscribes, GET answers a page with a button) is declared with this path, and the
 * URLs put into `List-Unsubscribe` headers are built from it, so the two cannot disagree.
 */
export const unsubscribePath = "/u/:token" as const;

/** {@link UnsubscribeUrlOf} for the unsubscribe route mounted under `basePath`: `{baseUrl}{basePath}/u/<token>`. */
export function createUnsubscribeUrl(basePath: string): UnsubscribeUrlOf {
  return (baseUrl, token) => `${baseUrl}${basePath}${fillPath(unsubscribePath, { token })}`;
}
