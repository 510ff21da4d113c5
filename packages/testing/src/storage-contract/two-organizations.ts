import type { Storage } from "@mailpulse/core/storage";
import { createResourceId } from "@mailpulse/core/storage";

/** Two organizations of a fresh storage: the one a case works in, and one it must never see. */
export interface TwoOrganizations {
  acme: string;
  other: string;
}

/**
 * Creates the organizations "Acme" and "Other" (created 2026-03-01) in `storage`, for contract
 * cases that check one organization's rows stay out of the other's reads.
 */
export async function createTwoOrganizations(storage: Storage): Promise<TwoOrganizations> {
  const createdAt = new Date("2026-03-01T00:00:00.000Z");
  const acme = createResourceId();
  const other = createResourceId();
  await storage.organizations.create({ id: acme, name: "Acme", createdAt });
  await storage.organizations.create({ id: other, name: "Other", createdAt });
  return { acme, other };
}
