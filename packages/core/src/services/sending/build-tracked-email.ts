import { MailPulseError } from "../../errors.js";
import { rewriteTrackedHtmlInSlices } from "../../html/rewrite-links.js";
import type { MailAddress } from "../../ports/mail-provider.js";
import type { EmailRecipientRecord, LinkRecord } from "../../ports/storage.js";
import { createSecretToken } from "../../util/ids.js";
import { redirectUrl } from "../../util/redirect-url.js";
import { formatMailbox } from "./addresses.js";
import type { TrackedLink } from "./email-answers.js";
import { maxTrackedLinks } from "./send-limits.js";
import type { TrackingUrls } from "./tracking-urls.js";
import { unsubscribeUrlPlaceholder } from "./unsubscribe-link.js";

/** A tracked link as the API returns it. */
export type TrackedLinkResponse = TrackedLink;

/** The email's HTML with tracking applied, and the records to store for it. */
export interface TrackedContent {
  trackingId: string;
  html: string;
  pixelUrl: string;
  links: LinkRecord[];
  linkResponses: TrackedLinkResponse[];
}

/**
 * Creates the tracking ids (128 random bits each: unguessable, so tracking URLs cannot be
 * enumerated) and rewrites the HTML: each link occurrence gets its own id; the pixel goes in
 * only when opens are tracked. A link's `originalUrl` is its WHATWG serialisation (`redirectUrl`).
 * A link holding `{{unsubscribe_url}}` is never rewritten (the send fills it in afterwards).
 * More than {@link maxTrackedLinks} trackable links is VALIDATION_FAILED on `htmlContent`, raised
 * at the first one too many so a list of 40,000 links costs no more than a thousand. `operation`
 * names the service method in that error. The HTML is read in 64 KiB slices with the event loop
 * given back between them (`rewriteTrackedHtmlInSlices`), so 5 MiB of `<a>` tags never holds it
 * (issue 31), and the refusal comes at the slice holding the link one too many.
 */
export async function buildTrackedContent(
  html: string,
  urls: TrackingUrls,
  baseUrl: string,
  tracking: { opens: boolean; clicks: boolean },
  operation: string,
): Promise<TrackedContent> {
  const trackingId = createSecretToken(16);
  const pixelUrl = urls.pixel(baseUrl, trackingId);
  const links: LinkRecord[] = [];
  const linkResponses: TrackedLinkResponse[] = [];
  const rewritten = await rewriteTrackedHtmlInSlices(html, {
    trackClicks: tracking.clicks,
    pixelUrl: tracking.opens ? pixelUrl : undefined,
    // The unsubscribe link is filled in after tracking, per message, and never tracked.
    keepLinksWith: [unsubscribeUrlPlaceholder],
    trackingUrlFor: (writtenUrl) => {
      if (links.length === maxTrackedLinks) throw tooManyLinks(operation);
      // Stored, answered and redirected to in its serialised form: the one form a `Location`
      // header can carry (punycode host, percent-encoded path). The rewriter only passes URLs
      // the URL parser accepts, so the fallback to the written form never redirects.
      const originalUrl = redirectUrl(writtenUrl) ?? writtenUrl;
      const id = createSecretToken(16);
      const trackingUrl = urls.click(baseUrl, id);
      links.push({ id, url: originalUrl });
      linkResponses.push({ originalUrl, trackingId: id, trackingUrl });
      return trackingUrl;
    },
  });
  return { trackingId, html: rewritten.html, pixelUrl, links, linkResponses };
}

/** Recipient rows: addresses lowercased (contacts are case-insensitive), display kept as written. */
export function recipientRecords(lists: {
  to: MailAddress[];
  cc?: MailAddress[];
  bcc?: MailAddress[];
}): EmailRecipientRecord[] {
  const rows = (kind: EmailRecipientRecord["kind"], list: MailAddress[] = []) =>
    list.map((mailbox) => ({
      kind,
      address: mailbox.address.toLowerCase(),
      display: formatMailbox(mailbox),
    }));
  return [...rows("to", lists.to), ...rows("cc", lists.cc), ...rows("bcc", lists.bcc)];
}

function tooManyLinks(operation: string): MailPulseError {
  const issue = {
    path: ["htmlContent"],
    message: `has more than ${maxTrackedLinks} trackable links; mark the others data-mailpulse-notrack or set tracking.clicks to false`,
  };
  return new MailPulseError(
    "VALIDATION_FAILED",
    `Invalid input of ${operation}: "htmlContent": ${issue.message}`,
    {
      issues: [issue],
    },
  );
}
