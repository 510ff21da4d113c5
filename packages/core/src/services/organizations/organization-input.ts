import { z } from "zod";
import { schemaFor } from "../validation/schema-for.js";

/** What `organizations.create` takes. */
export interface CreateOrganizationInput {
  /** Trimmed, 1 to 200 characters. */
  name: string;
}

/** Parses a {@link CreateOrganizationInput}. */
export const createOrganizationSchema = schemaFor<CreateOrganizationInput>()(
  z.object({
    name: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  }),
);
