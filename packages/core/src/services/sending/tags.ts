import { z } from "zod";
import { maxTagLength, maxTags } from "./send-limits.js";

const tagText = z
  .string()
  .min(1, "must not be empty")
  .max(maxTagLength, `must be at most ${maxTagLength} characters`)
  .regex(/^[A-Za-z0-9_-]+$/, "may only contain ASCII letters, digits, _ and -");

/** `tags`: at most {@link maxTags} `{ name, value }` pairs with distinct names. */
export const tagsSchema = z
  .array(z.strictObject({ name: tagText, value: tagText }).meta({ id: "Tag" }))
  .max(maxTags, `at most ${maxTags} tags`)
  .superRefine((tags, context) => {
    const seen = new Set<string>();
    tags.forEach((tag, index) => {
      if (seen.has(tag.name)) {
        context.addIssue({
          code: "custom",
          message: `repeats the tag name "${tag.name}"`,
          path: [index, "name"],
        });
      }
      seen.add(tag.name);
    });
  })
  .meta({
    id: "Tags",
    description: "Labels stored with the email and returned with it; names are unique within an email.",
  });

/**
 * A label stored with an email, returned with it and filterable in events: `{ name, value }`,
 * each 1 to 256 ASCII letters, digits, `_` or `-` (Resend's rule); names unique within an email.
 */
export type EmailTag = z.output<typeof tagsSchema>[number];
