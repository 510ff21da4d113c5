import { z } from "zod";
import { hasNoNul, nulMessage } from "../validation/no-nul.js";

/** Campaign name: trimmed, 1 to 200 characters (the spec leaves the length open; see docs/api.md). */
export const campaignNameSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters")
  .refine(hasNoNul, nulMessage);

/** What `campaigns.create` takes (the body of `POST /api/campaigns`). */
export const createCampaignSchema = z
  .object({
    name: campaignNameSchema.describe("Unique within the organization. Trimmed; 1 to 200 characters."),
  })
  .meta({ id: "CreateCampaignRequest" });

/** What `campaigns.create` takes: {@link createCampaignSchema}'s input. */
export type CreateCampaignInput = z.input<typeof createCampaignSchema>;

/** What `campaigns.rename` takes (the body of `PATCH /api/campaigns/:id`). */
export const renameCampaignSchema = z
  .strictObject({
    name: campaignNameSchema.describe(
      "The new name: unique within the organization, archived campaigns included. Trimmed; 1 to 200 characters.",
    ),
  })
  .meta({ id: "RenameCampaignRequest" });

/** What `campaigns.rename` takes: {@link renameCampaignSchema}'s input. */
export type RenameCampaignInput = z.input<typeof renameCampaignSchema>;
