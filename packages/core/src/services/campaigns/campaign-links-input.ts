import { z } from "zod";
import { hasControlCharacter } from "../../util/control-characters.js";

/** Links per page when `limit` is not given. */
export const defaultCampaignLinkPageSize = 100;
/** The largest accepted `limit`. */
export const maxCampaignLinkPageSize = 1000;

/** Encodes the last URL of a page as an opaque base64url cursor. */
export function encodeCampaignLinkCursor(url: string): string {
  return Buffer.from(url, "utf8").toString("base64url");
}

/**
 * What `campaigns.links` takes (the query of `GET /api/campaigns/:id/links`): `limit` coerced
 * from the query's string, `cursor` decoded to the URL the page starts after (refused when it
 * cannot be one MailPulse issued).
 */
export const campaignLinksSchema = z.object({
  limit: z.coerce
    .number<number>()
    .int("must be an integer")
    .min(1, "must be at least 1")
    .max(maxCampaignLinkPageSize, `must be at most ${maxCampaignLinkPageSize}`)
    .default(defaultCampaignLinkPageSize)
    .describe("Links per page."),
  cursor: z
    .string()
    .max(12_000)
    .transform((token, context) => {
      const url = Buffer.from(token, "base64url").toString("utf8");
      if (url === "" || hasControlCharacter(url) || url.includes("\ufffd")) {
        context.addIssue({
          code: "custom",
          message: "is not a cursor MailPulse issued; use the one the previous page gave",
        });
        return z.NEVER;
      }
      return url;
    })
    .optional()
    .describe("Opaque position of the next page, as issued in the `Link` header."),
});

/** What `campaigns.links` takes: {@link campaignLinksSchema}'s input. */
export type CampaignLinksInput = z.input<typeof campaignLinksSchema>;
