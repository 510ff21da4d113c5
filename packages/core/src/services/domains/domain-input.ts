import { z } from "zod";
import { hasNoNul, nulMessage } from "../validation/no-nul.js";
import { domainNameSchema } from "./domain-name.js";

/**
 * What `sendingDomains.create` and `trackingDomain.set` take (`POST` bodies with `domain`): a
 * domain name, normalised (lower case, no trailing dot, IDN in punycode) and validated (labels,
 * length, at least two labels, no IP literal, not localhost).
 */
export const domainInputSchema = z
  .object({
    domain: domainNameSchema.describe(
      "A domain name: at least two labels of letters, digits and hyphens; not an IP address or localhost. Internationalised names are accepted and stored in punycode.",
    ),
  })
  .meta({ id: "DomainRequest" });

/** What `sendingDomains.create` and `trackingDomain.set` take: {@link domainInputSchema}'s input. */
export type DomainInput = z.input<typeof domainInputSchema>;

/** What `sendingDomains.verify` takes (the body of `POST /api/sending-domains/verify`). */
export const verifySendingDomainSchema = z
  .object({
    domainId: z
      .string()
      .min(1, "must not be empty")
      .max(200, "must be at most 200 characters")
      // PostgreSQL refuses NUL in text; one answer for both dialects.
      .refine(hasNoNul, nulMessage)
      .describe("The id `create` returned."),
  })
  .meta({ id: "VerifySendingDomainRequest" });

/** What `sendingDomains.verify` takes: {@link verifySendingDomainSchema}'s input. */
export type VerifySendingDomainInput = z.input<typeof verifySendingDomainSchema>;
