import { z } from "zod";

/** What `organizations.create` takes: a name, trimmed, 1 to 200 characters. */
export const createOrganizationSchema = z.object({
  name: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
});

/** What `organizations.create` takes: {@link createOrganizationSchema}'s input. */
export type CreateOrganizationInput = z.input<typeof createOrganizationSchema>;
