/**
 * `CampaignStore.rename`: a new name for a campaign (archived ones too), the organization's unique
 * names kept, another organization's campaign untouched.
 */

import { createResourceId } from "@mailpulse/core/storage";
import { describe, expect, it } from "vitest";
import type { StorageFactory } from "./storage-factory.js";
import { eachCaseWithTwoOrganizations } from "./two-organizations.js";

/** Campaign renames, over storages from `createStorage`. */
export function campaignRenameContract(createStorage: StorageFactory): void {
  describe("campaign rename", () => {
    const scope = eachCaseWithTwoOrganizations(createStorage);

    it("renames within the organization's unique names, archived campaigns included", async () => {
      const { storage, acme, other } = scope;
      const createdAt = new Date("2026-03-02T00:00:00.000Z");
      const campaign = (organizationId: string, name: string) => ({
        id: createResourceId(),
        organizationId,
        name,
        createdAt,
        archivedAt: null,
      });
      const spring = campaign(acme, "Spring");
      const autumn = campaign(acme, "Autumn");
      const theirs = campaign(other, "Theirs");
      for (const record of [spring, autumn, theirs])
        expect(await storage.campaigns.create(record, {})).toBe("created");

      expect(await storage.campaigns.rename(acme, spring.id, "Spring 2026")).toBe("renamed");
      expect((await storage.campaigns.get(acme, spring.id))?.name).toBe("Spring 2026");
      expect(await storage.campaigns.rename(acme, spring.id, "Spring 2026")).toBe("renamed");
      expect(await storage.campaigns.rename(acme, autumn.id, "Spring 2026")).toBe("name_taken");
      expect((await storage.campaigns.get(acme, autumn.id))?.name).toBe("Autumn");

      expect(await storage.campaigns.archive(acme, autumn.id, createdAt)).toBe(true);
      expect(await storage.campaigns.rename(acme, spring.id, "Autumn")).toBe("name_taken");
      expect(await storage.campaigns.rename(acme, autumn.id, "Autumn 2025")).toBe("renamed");
      expect((await storage.campaigns.get(acme, autumn.id))?.archivedAt).toEqual(createdAt);

      // Another organization's campaign is missing to this one, and its names do not clash.
      expect(await storage.campaigns.rename(acme, theirs.id, "Mine")).toBe("missing");
      expect((await storage.campaigns.get(other, theirs.id))?.name).toBe("Theirs");
      expect(await storage.campaigns.rename(other, theirs.id, "Spring 2026")).toBe("renamed");
    });
  });
}
