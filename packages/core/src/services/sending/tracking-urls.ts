/**
 * The public URLs of the tracking endpoints, as the email service writes them into emails. The
 * HTTP layer knows the paths (`routes/tracking-urls.ts` builds this from the tracking routes);
 * the service only picks the base URL: the instance's, or the organization's tracking domain.
 */
export interface TrackingUrls {
  /** The open pixel of the email with `trackingId`, under `baseUrl` (no trailing slash). */
  pixel(baseUrl: string, trackingId: string): string;
  /** The click redirect of the link occurrence with `linkId`, under `baseUrl`. */
  click(baseUrl: string, linkId: string): string;
}
