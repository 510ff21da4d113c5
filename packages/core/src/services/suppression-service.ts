import { MailPulseError, notFound } from "../errors.js";
import type { SuppressionRecord } from "../ports/storage.js";
import { normalizeAddress } from "../util/normalize-address.js";
import { sanitizeText } from "../util/sanitize-text.js";
import type { ServiceDeps } from "./service-context.js";
import type {
  AddSuppressionsResult,
  Suppression,
  SuppressionPage,
} from "./suppressions/suppression-answers.js";
import {
  addSuppressionsSchema,
  maxDiagnosticLength,
  type SuppressInput,
  suppressedAddressSchema,
  suppressionListSchema,
} from "./suppressions/suppression-input.js";
import { type ValidatedMethod, validatedMethod } from "./validation/validated-method.js";

export type { AddSuppressionsResult, SuppressInput, Suppression, SuppressionPage };

/**
 * The organization's suppression list (docs/deliverability.md): addresses the send drops. An
 * address is suppressed once; suppressing it again keeps its first reason and moves `updatedAt`.
 */
export interface SuppressionService {
  /** Entries in address order, filtered, paged by `after`. VALIDATION_FAILED for a bad query. */
  list: ValidatedMethod<[organizationId: string], typeof suppressionListSchema, SuppressionPage, true>;
  /**
   * Suppresses up to 1,000 addresses by hand (reason `manual`); says how many were new.
   * VALIDATION_FAILED naming the first bad address.
   */
  add: ValidatedMethod<[organizationId: string], typeof addSuppressionsSchema, AddSuppressionsResult>;
  /** Lifts the suppression of `address` (any case); NOT_FOUND when it is not suppressed. */
  remove(organizationId: string, address: string): Promise<void>;
  /**
   * Suppresses one address for a bounce, complaint or unsubscribe (the intake calls it); true when
   * it was not suppressed before. VALIDATION_FAILED for an address a send would not accept.
   */
  suppress(organizationId: string, entry: SuppressInput): Promise<boolean>;
}

/** A stored entry as the API shows it. */
export function toApiSuppression(record: SuppressionRecord): Suppression {
  return {
    address: record.address,
    reason: record.reason,
    sourceEmailId: record.sourceEmailId,
    status: record.status,
    diagnostic: record.diagnostic,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

/** Builds the {@link SuppressionService}. */
export function createSuppressionService(deps: ServiceDeps): SuppressionService {
  const { storage, clock } = deps;

  return {
    list: validatedMethod(
      suppressionListSchema,
      "suppressions.list",
      { leading: 1, whenOmitted: {} },
      async (organizationId: string, input) => {
        const records = await storage.suppressions.list(organizationId, input);
        const last = records.at(-1);
        return {
          data: records.map(toApiSuppression),
          nextCursor: last && records.length === input.limit ? last.address : null,
        };
      },
    ),

    add: validatedMethod(
      addSuppressionsSchema,
      "suppressions.add",
      { leading: 1 },
      async (organizationId: string, input) => {
        const distinct = [...new Set(input.addresses)];
        const added = await storage.suppressions.add(
          organizationId,
          distinct.map((address) => ({
            address,
            reason: input.reason,
            sourceEmailId: null,
            status: null,
            diagnostic: null,
          })),
          clock.now(),
        );
        return { added: added.length, alreadySuppressed: distinct.length - added.length };
      },
    ),

    async remove(organizationId, address) {
      if (!(await storage.suppressions.delete(organizationId, normalizeAddress(address)))) {
        throw notFound("Suppression");
      }
    },

    async suppress(organizationId, entry) {
      const parsed = suppressedAddressSchema.safeParse(entry.address);
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? "is not an email address";
        throw new MailPulseError(
          "VALIDATION_FAILED",
          `Invalid input of suppressions.suppress: "address" ${message}`,
          {
            issues: [{ path: ["address"], message }],
          },
        );
      }
      const added = await storage.suppressions.add(
        organizationId,
        [
          {
            address: parsed.data,
            reason: entry.reason,
            sourceEmailId: entry.sourceEmailId ?? null,
            // What a remote server wrote: kept as data every storage accepts, and bounded.
            status: entry.status == null ? null : sanitizeText(entry.status).slice(0, 32),
            diagnostic:
              entry.diagnostic == null ? null : sanitizeText(entry.diagnostic).slice(0, maxDiagnosticLength),
          },
        ],
        clock.now(),
      );
      return added.length > 0;
    },
  };
}
