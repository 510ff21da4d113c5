/**
 * The paths of the tracking routes, relative to the base path: the routes are declared with them
 * and the tracking URLs put into emails are built from them, so the two cannot disagree.
 */
export const trackingPaths = {
  /** The open pixel: `:id` is the email's tracking id. */
  open: "/t/o/:id",
  /** The click redirect: `:id` is the link occurrence's tracking id. */
  click: "/t/c/:id",
} as const;
