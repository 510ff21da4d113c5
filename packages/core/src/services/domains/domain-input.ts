import { z } from "zod";
import { hasNoNul, nulMessage } from "../validation/no-nul.js";
import { schemaFor } from "../validation/schema-for.js";
import { domainNameSchema } from "./domain-name.js";

/** What `sendingDomains.create` and `trackingDomain.set` take (`POST` bodies with `domain`). */
export interface DomainInput {
  /**
   * A domain name: normalised (lower case, no trailing dot, IDN in punycode) and validated
   * (labels, length, at least two labels, no IP literal, not localhost).
   */
  domain: string;
}

/** Parses a {@link DomainInput}. */
export const domainInputSchema = schemaFor<DomainInput>()(z.object({ domain: domainNameSchema }));

/** What `sendingDomains.verify` takes (the body of `POST /api/sending-domains/verify`). */
export interface VerifySendingDomainInput {
  /** The id `create` returned. */
  domainId: string;
}

/** Parses a {@link VerifySendingDomainInput}. */
export const verifySendingDomainSchema = schemaFor<VerifySendingDomainInput>()(
  z.object({
    domainId: z
      .string()
      .min(1, "must not be empty")
      .max(200, "must be at most 200 characters")
      // PostgreSQL refuses NUL in text; one answer for both dialects.
      .refine(hasNoNul, nulMessage),
  }),
);
