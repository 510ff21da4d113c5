import { fillPath } from "../http/mount-routes.js";
import type { TrackingUrls } from "../services/sending/tracking-urls.js";
import { trackingPaths } from "./tracking-paths.js";

/** {@link TrackingUrls} for the tracking routes mounted under `basePath`. */
export function createTrackingUrls(basePath: string): TrackingUrls {
  return {
    pixel: (baseUrl, trackingId) =>
      `${baseUrl}${basePath}${fillPath(trackingPaths.open, { id: trackingId })}`,
    click: (baseUrl, linkId) => `${baseUrl}${basePath}${fillPath(trackingPaths.click, { id: linkId })}`,
  };
}
