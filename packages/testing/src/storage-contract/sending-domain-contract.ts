/**
 * The sending-domain store: what the sender rule reads, and the domain API's rules (a name unique
 * per organization, verified by one organization at most).
 */

import type { SendingDomainRecord, Storage } from "@mailpulse/core/storage";
import { createResourceId } from "@mailpulse/core/storage";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
        dkimPublicKey: `public-${name}`,
        createdAt: new Date("2026-01-02T00:00:00.000Z"),
        verifiedAt: verified ? new Date("2026-01-03T00:00:00.000Z") : null,
        lastCheckedAt: verified ? new Date("2026-01-03T00:00:00.000Z") : null,
        failedChecks: 0,
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

    it("keeps sending-domain names unique per organization, verified by one organization at most", async () => {
      const acme = await organization("Acme");
      const beta = await organization("Beta");
      const domain = (organizationId: string, id: string) => ({
        id,
        organizationId,
        domain: "acme.example",
        status: "pending" as const,
        records: '[{"type":"MX"}]',
        dkimSelector: "mailpulse",
        dkimPrivateKey: "private",
        dkimPublicKey: "public",
        createdAt: new Date("2026-05-01T00:00:00.000Z"),
        verifiedAt: null,
        lastCheckedAt: null,
        failedChecks: 0,
      });
      expect(await storage.sendingDomains.create(domain(acme, "d1"))).toBe("created");
      expect(await storage.sendingDomains.create(domain(acme, "d2"))).toBe("exists");
      // Pending in one organization does not keep another from adding it.
      expect(await storage.sendingDomains.create(domain(beta, "d3"))).toBe("created");
      expect(await storage.sendingDomains.get(acme, "d1")).toEqual(domain(acme, "d1"));
      expect(await storage.sendingDomains.get(beta, "d1")).toBeUndefined();
      expect((await storage.sendingDomains.list(acme)).map((d) => d.id)).toEqual(["d1"]);
      expect((await storage.sendingDomains.listAll()).map((d) => d.id)).toEqual(["d1", "d3"]);
      expect(await storage.sendingDomains.findVerified(acme, "acme.example")).toBeUndefined();

      const verified = {
        status: "verified" as const,
        records: '[{"type":"MX","status":"verified"}]',
        verifiedAt: new Date("2026-05-02T00:00:00.000Z"),
        lastCheckedAt: new Date("2026-05-02T00:00:00.000Z"),
        failedChecks: 0,
      };
      expect(await storage.sendingDomains.saveCheck(beta, "d1", verified)).toBe("missing");
      expect(await storage.sendingDomains.saveCheck(acme, "d1", verified)).toBe("saved");
      expect(await storage.sendingDomains.get(acme, "d1")).toMatchObject(verified);
      expect(await storage.sendingDomains.findVerified(acme, "acme.example")).toEqual({
        domain: "acme.example",
        dkimSelector: "mailpulse",
        dkimPrivateKey: "private",
      });
      expect(await storage.sendingDomains.isVerifiedElsewhere(beta, "acme.example")).toBe(true);
      expect(await storage.sendingDomains.isVerifiedElsewhere(acme, "acme.example")).toBe(false);
      // The second organization cannot verify the name too, and nothing of its check is saved.
      expect(await storage.sendingDomains.saveCheck(beta, "d3", verified)).toBe("taken");
      expect((await storage.sendingDomains.get(beta, "d3"))?.status).toBe("pending");

      expect(await storage.sendingDomains.delete(beta, "d1")).toBe(false);
      expect(await storage.sendingDomains.delete(acme, "d1")).toBe(true);
      expect(await storage.sendingDomains.get(acme, "d1")).toBeUndefined();
      expect(await storage.sendingDomains.saveCheck(beta, "d3", verified)).toBe("saved");
    });
  });
}
