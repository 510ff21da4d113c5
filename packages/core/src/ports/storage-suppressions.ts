/**
 * The per-organization suppression list: addresses MailPulse must not send to, with why. The
 * send checks it once per message (`findByAddresses`); the API lists, adds and removes entries;
 * the bounce, complaint and unsubscribe intake adds to it (docs/deliverability.md).
 */

/** Why an address is suppressed. */
export type SuppressionReason = "hard_bounce" | "complaint" | "unsubscribe" | "manual";

/** A suppressed address as stored. */
export interface SuppressionRecord {
  organizationId: string;
  /** Normalised: trimmed and lowercased, as recipient rows are. One row per organization and address. */
  address: string;
  reason: SuppressionReason;
  /** The email whose bounce, complaint or unsubscribe caused it; null when added by hand. */
  sourceEmailId: string | null;
  /** The enhanced status code of a bounce (`5.1.1`), or null. */
  status: string | null;
  /** The receiving server's words (a bounce's `Diagnostic-Code`), bounded by the service; or null. */
  diagnostic: string | null;
  /** When the address was first suppressed. */
  createdAt: Date;
  /** When it was last suppressed (again): a repeat keeps the first reason and moves only this. */
  updatedAt: Date;
}

/** A new entry of {@link SuppressionStore.add}; `createdAt` and `updatedAt` are both `at`. */
export type NewSuppression = Omit<SuppressionRecord, "organizationId" | "createdAt" | "updatedAt">;

/** What {@link SuppressionStore.list} pages through. */
export interface SuppressionListQuery {
  /** At most this many entries. */
  limit: number;
  /** Only addresses sorting after this one (the last address of the previous page). */
  after?: string;
  reason?: SuppressionReason;
  /** Only this address (normalised). */
  address?: string;
  /** Only addresses starting with this (normalised); `%` and `_` are matched literally. */
  addressPrefix?: string;
}

/** Suppressed addresses of organizations. */
export interface SuppressionStore {
  /**
   * Suppresses each address (normalised by the store too) unless the organization already has it:
   * an existing entry keeps its reason, source, status, diagnostic and `createdAt`, and only its
   * `updatedAt` becomes `at`. Returns the addresses that were not suppressed before (normalised).
   * Atomic; an address given twice counts once.
   */
  add(organizationId: string, entries: readonly NewSuppression[], at: Date): Promise<string[]>;
  /** The organization's entries among `addresses` (normalised by the store), in one query. */
  findByAddresses(organizationId: string, addresses: readonly string[]): Promise<SuppressionRecord[]>;
  /** The organization's entries in address order, filtered and paged by `query`. */
  list(organizationId: string, query: SuppressionListQuery): Promise<SuppressionRecord[]>;
  /** Removes the entry; `false` when the organization has no such address. */
  delete(organizationId: string, address: string): Promise<boolean>;
}
