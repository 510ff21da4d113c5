import { type ApiTestTarget, createApiClient, createTenant } from "@mailpulse/testing/contracts";
import { type DnsTestServer, startDnsTestServer } from "@mailpulse/testing/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTargetStarter } from "../support/start-api-target.js";
import { storageFactories } from "../support/storages.js";

const platform = "platform.example";

for (const storage of storageFactories) {
  describe(`custom tracking domain over HTTP on ${storage.name}`, () => {
    let dns: DnsTestServer;
    let target: ApiTestTarget;
    beforeAll(async () => {
      dns = await startDnsTestServer();
      target = await apiTargetStarter(
        "fetch",
        storage,
      )({
        platformDomain: platform,
        domains: { dnsServers: [dns.server], dnsTimeoutMs: 2000 },
      });
    });
    afterAll(async () => {
      await Promise.all([target?.close(), dns?.close()]);
    });

    const email = {
      from: "a@acme.example",
      to: "b@example.com",
      subject: "S",
      htmlContent: '<a href="https://x.example/">x</a>',
    };

    it("sets, verifies, uses and removes a tracking domain", async () => {
      const { key } = await createTenant(target.mailpulse);
      const call = createApiClient(target.baseUrl);
      expect((await call("GET", "/api/organizations/domain", { key })).body).toEqual({
        customDomain: null,
        domainVerified: false,
        domainVerifiedAt: null,
        expectedCNAME: `track.${platform}`,
      });
      expect((await call("POST", "/api/organizations/domain/verify", { key })).status).toBe(404);

      const set = await call("POST", "/api/organizations/domain", {
        key,
        json: { domain: "Track.Acme.Example." },
      });
      expect(set).toMatchObject({
        status: 200,
        body: { customDomain: "track.acme.example", domainVerified: false },
      });

      const missing = await call("POST", "/api/organizations/domain/verify", { key });
      expect(missing.body).toEqual({
        verified: false,
        error: `no CNAME record at track.acme.example: add one pointing to track.${platform}`,
      });
      dns.add("track.acme.example", { type: "CNAME", value: "other.example" });
      const wrong = await call("POST", "/api/organizations/domain/verify", { key });
      expect(wrong.body).toEqual({
        verified: false,
        error: `found CNAME other.example at track.acme.example, expected track.${platform}`,
      });
      const before = await call("POST", "/api/send", { key, json: email });
      expect(before.body.pixelUrl.startsWith(`${target.baseUrl}/api/t/o/`)).toBe(true);

      dns.remove("track.acme.example");
      dns.add("track.acme.example", { type: "CNAME", value: "TRACK.Platform.Example" });
      const verified = await call("POST", "/api/organizations/domain/verify", { key });
      expect(verified.body).toEqual({ verified: true, domainVerifiedAt: expect.any(String) });
      const state = (await call("GET", "/api/organizations/domain", { key })).body;
      expect(state).toMatchObject({ customDomain: "track.acme.example", domainVerified: true });
      expect(state.domainVerifiedAt).toBe(verified.body.domainVerifiedAt);

      const after = await call("POST", "/api/send", { key, json: email });
      expect(after.body.pixelUrl.startsWith("https://track.acme.example/api/t/o/")).toBe(true);
      expect(after.body.links[0].trackingUrl.startsWith("https://track.acme.example/api/t/c/")).toBe(true);

      expect((await call("DELETE", "/api/organizations/domain", { key })).body).toEqual({ success: true });
      const removed = await call("POST", "/api/send", { key, json: email });
      expect(removed.body.pixelUrl.startsWith(`${target.baseUrl}/api/t/o/`)).toBe(true);
      expect((await call("GET", "/api/organizations/domain", { key })).body.customDomain).toBeNull();
    });

    it("refuses a bad format and a domain another organization uses (400); setting resets verification", async () => {
      const first = await createTenant(target.mailpulse, "First");
      const second = await createTenant(target.mailpulse, "Second");
      const call = createApiClient(target.baseUrl);
      const bad = await call("POST", "/api/organizations/domain", {
        key: first.key,
        json: { domain: "localhost" },
      });
      expect(bad.status).toBe(400);
      // Issue 31: short and hex IPv4 forms were stored as 127.0.0.1 and 123.0.0.123.
      for (const domain of ["0x7f.1", "123.123", "0177.1"]) {
        const address = await call("POST", "/api/organizations/domain", { key: first.key, json: { domain } });
        expect(address.status, domain).toBe(400);
        expect(address.body.error).toContain("must be a domain name, not an IP address");
      }
      expect((await call("POST", "/api/organizations/domain", { key: first.key, json: {} })).status).toBe(
        400,
      );

      await call("POST", "/api/organizations/domain", {
        key: first.key,
        json: { domain: "t.first.example" },
      });
      const taken = await call("POST", "/api/organizations/domain", {
        key: second.key,
        json: { domain: "t.first.example" },
      });
      expect(taken).toMatchObject({
        status: 400,
        body: { error: "t.first.example is already used by another organization" },
      });

      dns.add("t.first.example", { type: "CNAME", value: `track.${platform}` });
      expect((await call("POST", "/api/organizations/domain/verify", { key: first.key })).body.verified).toBe(
        true,
      );
      await call("POST", "/api/organizations/domain", {
        key: first.key,
        json: { domain: "t2.first.example" },
      });
      expect((await call("GET", "/api/organizations/domain", { key: first.key })).body).toMatchObject({
        customDomain: "t2.first.example",
        domainVerified: false,
        domainVerifiedAt: null,
      });
    });

    it("answers verified: false with the timeout within the timeout when DNS never answers", async () => {
      const silent = await startDnsTestServer();
      silent.silent = true;
      const slow = await apiTargetStarter(
        "fetch",
        storage,
      )({
        platformDomain: platform,
        domains: { dnsServers: [silent.server], dnsTimeoutMs: 400 },
      });
      try {
        const { key } = await createTenant(slow.mailpulse);
        const call = createApiClient(slow.baseUrl);
        await call("POST", "/api/organizations/domain", { key, json: { domain: "t.slow.example" } });
        const started = Date.now();
        const answer = await call("POST", "/api/organizations/domain/verify", { key });
        expect(Date.now() - started).toBeLessThan(3000);
        expect(answer).toMatchObject({
          status: 200,
          body: { verified: false, error: "DNS lookup of CNAME t.slow.example timed out after 400 ms" },
        });
      } finally {
        await Promise.all([slow.close(), silent.close()]);
      }
    });
  });
}
