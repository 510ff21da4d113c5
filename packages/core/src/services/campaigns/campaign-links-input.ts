import { z } from "zod";
import { hasControlCharacter } from "../../util/control-characters.js";
import { opaqueCursor, pageLimit } from "../validation/page-query.js";

/** Links per page when `limit` is not given. */
export const defaultCampaignLinkPageSize = 100;
/** The largest accepted `limit`. */
export const maxCampaignLinkPageSize = 1000;

/** Encodes the last URL of a page as an opaque base64url cursor. */
export function encodeCampaignLinkCursor(url: string): string {
  return Buffer.from(url, "utf8").toString("base64url");
}

/**
 * Decodes {@link encodeCampaignLinkCursor}'s token to the URL the page starts after; `undefined`
 * when it cannot be one MailPulse issued (empty, a control character, bytes that are not UTF-8).
 */
export function decodeCampaignLinkCursor(token: string): string | undefined {
  const url = Buffer.from(token, "base64url").toString("utf8");
  return url === "" || hasControlCharacter(url) || url.includes("\ufffd") ? undefined : url;
}

/**
 * What `campaigns.links` takes (the query of `GET /api/campaigns/:id/links`): `limit` coerced
 * from the query's string, `cursor` decoded to the URL the page starts after (refused when it
 * cannot be one MailPulse issued).
 */
export const campaignLinksSchema = z.object({
  limit: pageLimit(maxCampaignLinkPageSize, defaultCampaignLinkPageSize).describe("Links per page."),
  cursor: opaqueCursor(12_000, decodeCampaignLinkCursor).describe(
    "Opaque position of the next page, as issued in the `Link` header.",
  ),
});

/** What `campaigns.links` takes: {@link campaignLinksSchema}'s input. */
export type CampaignLinksInput = z.input<typeof campaignLinksSchema>;
