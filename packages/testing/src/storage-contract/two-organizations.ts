import type { Storage } from "@mailpulse/core/storage";
import { createResourceId } from "@mailpulse/core/storage";
import { afterEach, beforeEach } from "vitest";
import type { StorageFactory } from "./storage-factory.js";

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

/** A case's storage and its two organizations (see {@link eachCaseWithTwoOrganizations}). */
export interface TwoOrganizationsScope extends TwoOrganizations {
  storage: Storage;
}

/**
 * Gives every case of the enclosing `describe` a fresh storage from `createStorage` with
 * {@link createTwoOrganizations}'s organizations, and closes it after the case. Read the returned
 * scope's fields inside cases only (they change from case to case).
 */
export function eachCaseWithTwoOrganizations(createStorage: StorageFactory): TwoOrganizationsScope {
  let current: TwoOrganizationsScope | undefined;
  const live = (): TwoOrganizationsScope => {
    if (!current) throw new Error("the two-organizations scope is read outside a test case");
    return current;
  };
  beforeEach(async () => {
    const storage = await createStorage();
    current = { storage, ...(await createTwoOrganizations(storage)) };
  });
  afterEach(async () => {
    await current?.storage.close();
    current = undefined;
  });
  return {
    get storage() {
      return live().storage;
    },
    get acme() {
      return live().acme;
    },
    get other() {
      return live().other;
    },
  };
}
