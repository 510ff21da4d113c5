/**
 * What MailPulse's tracking routes answer, byte for byte, for the bare baseline routes. Copied
 * from packages/core/src/routes/tracking-routes.ts (not exported there): if those change, change
 * these, or the baseline answers something else than the candidate.
 */

/** The 1x1 transparent GIF of the open pixel (42 bytes). */
export const transparentGif = Buffer.from(
  "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7",
  "base64",
);

/** Headers of the pixel response. */
export const pixelHeaders: Record<string, string> = {
  "cache-control": "no-store, no-cache, must-revalidate, private",
  pragma: "no-cache",
  expires: "0",
  "content-type": "image/gif",
  "content-length": String(transparentGif.length),
};

/**
 * Where the bare click route redirects. The bare route has no link table to look in; a URL of a
 * newsletter link's typical length keeps the response the same size as the candidate's.
 */
export const bareRedirectUrl = "https://shop.example.com/p/1234?utm_source=newsletter&utm_medium=email";

/** Headers of the click redirect (302), besides `location`. */
export const redirectHeaders: Record<string, string> = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
};
