/** The sending-domain store: what the sender rule reads (the domains issue adds the rest). */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SendingDomainRecord, Storage } from "../../ports/storage.js";
import { createResourceId } from "../../util/ids.js";
import type { StorageFactory } from "./storage-factory.js";

/** Sending domains over storages from `createStorage`. */
export function sendingDomainContract(createStorage: StorageFactory): void {
  describe("sending domains", () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await createStorage();
    });
    afterEach(async () => {
      await storage.close();
    });

    async function organization(name: string) {
      const org = { id: createResourceId(), name, createdAt: new Date("2026-01-01T00:00:00.000Z") };
      await storage.organizations.create(org);
      return org.id;
    }

    function domain(
      organizationId: string,
      name: string,
      status: SendingDomainRecord["status"],
    ): SendingDomainRecord {
      const verified = status === "verified";
      return {
        id: createResourceId(),
        organizationId,
        domain: name,
        status,
        records: "[]",
        dkimSelector: `mp-${name.split(".")[0]}`,
        dkimPrivateKey: `-----BEGIN PRIVATE KEY-----\n${name}\n-----END PRIVATE KEY-----`,
        createdAt: new Date("2026-01-02T00:00:00.000Z"),
        verifiedAt: verified ? new Date("2026-01-03T00:00:00.000Z") : null,
      };
    }

    it("finds an organization's verified domain with its DKIM key, and nothing else", async () => {
      const acme = await organization("Acme");
      const beta = await organization("Beta");
      const verified = domain(acme, "acme.example", "verified");
      await storage.sendingDomains.create(verified);
      await storage.sendingDomains.create(domain(acme, "pending.example", "pending"));
      await storage.sendingDomains.create(domain(acme, "failed.example", "failed"));
      await storage.sendingDomains.create(domain(beta, "beta.example", "verified"));

      expect(await storage.sendingDomains.findVerified(acme, "acme.example")).toEqual({
        domain: "acme.example",
        dkimSelector: verified.dkimSelector,
        dkimPrivateKey: verified.dkimPrivateKey,
      });
      for (const [organizationId, name] of [
        [acme, "pending.example"],
        [acme, "failed.example"],
        [acme, "beta.example"],
        [beta, "acme.example"],
        [acme, "unknown.example"],
      ] as const) {
        expect(await storage.sendingDomains.findVerified(organizationId, name), name).toBeUndefined();
      }
    });
  });
}
