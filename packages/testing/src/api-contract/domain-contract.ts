import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DnsTestServer, startDnsTestServer } from "../dns-test-server.js";
import { type ApiTestTarget, createApiClient, createTenant, type StartApiTarget } from "./api-target.js";
import { contractPlatformDomain } from "./send-contract.js";

/**
 * Sending domains and the custom tracking domain over HTTP, on a target of its own that reads a
 * DNS server on loopback (needs `dns2`). Every method shape the domain routes use goes through the
 * host adapter: bodies, DELETE without a body, POST without a body.
 */
export function domainContract(start: StartApiTarget): void {
  describe("domains", () => {
    let dns: DnsTestServer;
    let target: ApiTestTarget;
    beforeAll(async () => {
      dns = await startDnsTestServer();
      target = await start({
        platformDomain: contractPlatformDomain,
        domains: { dnsServers: [dns.server], dnsTimeoutMs: 2000 },
      });
    });
    afterAll(async () => {
      await Promise.all([target?.close(), dns?.close()]);
    });

    it("adds, verifies, lists and deletes a sending domain", async () => {
      const call = createApiClient(target.baseUrl);
      const { key } = await createTenant(target.mailpulse);
      const created = await call("POST", "/api/sending-domains", {
        key,
        json: { domain: "Contract.Example" },
      });
      expect(created).toMatchObject({ status: 201, body: { domain: "contract.example", status: "pending" } });
      for (const record of created.body.records as Array<{ type: string; name: string; value: string }>) {
        if (record.type === "MX") dns.add(record.name, { type: "MX", value: record.value, priority: 10 });
        if (record.type === "TXT") dns.add(record.name, { type: "TXT", value: record.value });
        if (record.type === "CNAME") dns.add(record.name, { type: "CNAME", value: record.value });
      }
      const verified = await call("POST", "/api/sending-domains/verify", {
        key,
        json: { domainId: created.body.id },
      });
      expect(verified).toMatchObject({ status: 200, body: { status: "verified", verified: true } });
      const listed = await call("GET", "/api/sending-domains", { key });
      expect(listed.body.domains.map((d: { domain: string }) => d.domain)).toEqual(["contract.example"]);
      const deleted = await call("DELETE", `/api/sending-domains/${created.body.id}`, { key });
      expect(deleted).toMatchObject({ status: 200, body: { success: true } });
      expect((await call("DELETE", `/api/sending-domains/${created.body.id}`, { key })).status).toBe(404);
    });

    it("sets, verifies (a POST without a body) and removes the tracking domain", async () => {
      const call = createApiClient(target.baseUrl);
      const { key } = await createTenant(target.mailpulse);
      const set = await call("POST", "/api/organizations/domain", {
        key,
        json: { domain: "t.contract.example" },
      });
      expect(set).toMatchObject({
        status: 200,
        body: { customDomain: "t.contract.example", domainVerified: false },
      });
      const unverified = await call("POST", "/api/organizations/domain/verify", { key });
      expect(unverified).toMatchObject({ status: 200, body: { verified: false } });
      dns.add("t.contract.example", { type: "CNAME", value: `track.${contractPlatformDomain}` });
      const verified = await call("POST", "/api/organizations/domain/verify", { key });
      expect(verified).toMatchObject({ status: 200, body: { verified: true } });
      const removed = await call("DELETE", "/api/organizations/domain", { key });
      expect(removed).toMatchObject({ status: 200, body: { success: true } });
      expect((await call("GET", "/api/organizations/domain", { key })).body.customDomain).toBeNull();
    });
  });
}
