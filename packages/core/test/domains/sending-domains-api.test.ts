import { randomBytes } from "node:crypto";
import { createMailPulse, type MemoryProvider, memoryProvider } from "@mailpulse/core";
import { createTestClock } from "@mailpulse/testing";
import { type ApiTestTarget, createApiClient, createTenant } from "@mailpulse/testing/contracts";
import { type DnsTestServer, startDnsTestServer } from "@mailpulse/testing/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTargetStarter } from "../support/start-api-target.js";
import { storageFactories } from "../support/storages.js";

const platform = "platform.example";

// Every flow through the HTTP API, against a DNS server on loopback: no test reaches public DNS.
for (const storage of storageFactories) {
  describe(`sending domains over HTTP on ${storage.name}`, () => {
    const start = apiTargetStarter("fetch", storage);
    let dns: DnsTestServer;
    let silentDns: DnsTestServer;
    let provider: MemoryProvider;
    let target: ApiTestTarget;
    const encryptionKey = randomBytes(32).toString("base64");

    beforeAll(async () => {
      [dns, silentDns] = await Promise.all([startDnsTestServer(), startDnsTestServer()]);
      silentDns.silent = true;
      provider = memoryProvider();
      target = await start({
        platformDomain: platform,
        mailProvider: provider,
        encryptionKey,
        domains: { dnsServers: [dns.server], dnsTimeoutMs: 2000 },
      });
    });
    afterAll(async () => {
      await Promise.all([target?.close(), dns?.close(), silentDns?.close()]);
    });

    /** Publishes what the API asked for, as an organization would at its DNS provider. */
    function publish(records: Array<{ type: string; name: string; value: string; priority?: number }>) {
      for (const record of records) {
        if (record.type === "MX") dns.add(record.name, { type: "MX", value: record.value, priority: 10 });
        if (record.type === "TXT") dns.add(record.name, { type: "TXT", value: record.value });
        if (record.type === "CNAME") dns.add(record.name, { type: "CNAME", value: record.value });
      }
    }

    it("validates and normalises the domain: 400 for a bad format or a missing field", async () => {
      const { key } = await createTenant(target.mailpulse);
      const call = createApiClient(target.baseUrl);
      for (const [domain, problem] of [
        ["localhost", "at least two labels"],
        ["10.0.0.1", "not an IP address"],
        // Issue 31: short and hex forms were stored as 127.0.0.1 and 123.0.0.123.
        ["0x7f.1", "not an IP address"],
        ["123.123", "not an IP address"],
        ["[::1]", "not an IP address"],
        ["-bad.example", 'invalid label "-bad"'],
      ] as const) {
        const response = await call("POST", "/api/sending-domains", { key, json: { domain } });
        expect(response.status, domain).toBe(400);
        expect(response.body.error).toContain(problem);
      }
      const missing = await call("POST", "/api/sending-domains", { key, json: {} });
      expect(missing).toMatchObject({
        status: 400,
        body: { error: 'Invalid request body: "domain" is required' },
      });
      const verifyMissing = await call("POST", "/api/sending-domains/verify", { key, json: {} });
      expect(verifyMissing.status).toBe(400);
      expect(verifyMissing.body.error).toContain('"domainId" is required');
    });

    // Issue 31: each domain costs an RSA key generation; 200 creations took 25 CPU-seconds.
    it("refuses a sending domain past domains.maxPerOrganization with 409, even when requests race", async () => {
      const capped = await start({
        platformDomain: platform,
        mailProvider: memoryProvider(),
        domains: { dnsServers: [dns.server], dnsTimeoutMs: 2000, maxPerOrganization: 3 },
      });
      try {
        const { key } = await createTenant(capped.mailpulse);
        const call = createApiClient(capped.baseUrl);
        for (const domain of ["one.example", "two.example"]) {
          expect((await call("POST", "/api/sending-domains", { key, json: { domain } })).status).toBe(201);
        }
        // Four at once for the last place: one gets it.
        const racing = await Promise.all(
          ["a.example", "b.example", "c.example", "d.example"].map((domain) =>
            call("POST", "/api/sending-domains", { key, json: { domain } }),
          ),
        );
        expect(racing.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409]);
        for (const answer of racing.filter((one) => one.status === 409)) {
          expect(answer.body).toEqual({
            error: "An organization can have at most 3 sending domains: delete one before adding another",
          });
        }
        const listed = await call("GET", "/api/sending-domains", { key });
        expect(listed.body.domains).toHaveLength(3);
        // Another organization has its own places; a deletion frees one.
        const other = await createTenant(capped.mailpulse, "Other");
        expect(
          (await call("POST", "/api/sending-domains", { key: other.key, json: { domain: "one.example" } }))
            .status,
        ).toBe(201);
        const deleted = await call("DELETE", `/api/sending-domains/${listed.body.domains[0].id}`, { key });
        expect(deleted.status).toBe(200);
        expect(
          (await call("POST", "/api/sending-domains", { key, json: { domain: "e.example" } })).status,
        ).toBe(201);
      } finally {
        await capped.close();
      }
    });

    it("pages GET /api/sending-domains with limit and a Link header, keeping the {domains} body", async () => {
      const { key } = await createTenant(target.mailpulse);
      const call = createApiClient(target.baseUrl);
      const names = ["p1.example", "p2.example", "p3.example", "p4.example", "p5.example"];
      for (const domain of names) await call("POST", "/api/sending-domains", { key, json: { domain } });

      const seen: string[] = [];
      let url: string | undefined = "/api/sending-domains?limit=2";
      let pages = 0;
      while (url) {
        const response: Response = await fetch(new URL(url, target.baseUrl), {
          headers: { "x-api-key": key },
        });
        expect(response.status).toBe(200);
        const body = (await response.json()) as { domains: Array<{ domain: string }> };
        expect(Object.keys(body)).toEqual(["domains"]);
        seen.push(...body.domains.map((domain) => domain.domain));
        pages += 1;
        const link: string | null = response.headers.get("link");
        url = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
        if (url) expect(url).toContain("limit=2");
      }
      expect(pages).toBe(3);
      expect(seen).toEqual(names);
      // Without a limit one page holds the default cap's worth: all of them, and no Link.
      const all = await call("GET", "/api/sending-domains", { key });
      expect(all.body.domains).toHaveLength(5);
      const unpaged = await fetch(new URL("/api/sending-domains", target.baseUrl), {
        headers: { "x-api-key": key },
      });
      expect(unpaged.headers.get("link")).toBeNull();
      for (const query of ["limit=0", "limit=201", "limit=x", "cursor=bogus"]) {
        const refused = await call("GET", `/api/sending-domains?${query}`, { key });
        expect(refused.status, query).toBe(400);
        expect(refused.body.error).toMatch(/^Invalid request query: /);
      }
    });

    it("adds a domain with its three records, verifies it against DNS, and sends from it signed", async () => {
      const { key } = await createTenant(target.mailpulse);
      const call = createApiClient(target.baseUrl);
      const created = await call("POST", "/api/sending-domains", { key, json: { domain: "Acme.Example." } });
      expect(created.status).toBe(201);
      expect(JSON.stringify(created.body)).not.toMatch(/PRIVATE KEY|mpenc/);
      const { id, records } = created.body;
      expect(created.body).toMatchObject({ domain: "acme.example", status: "pending" });
      expect(new Date(created.body.createdAt).toISOString()).toBe(created.body.createdAt);
      expect(records).toEqual([
        {
          type: "MX",
          name: "send.acme.example",
          value: `bounces.${platform}`,
          priority: 10,
          status: "not_started",
        },
        {
          type: "TXT",
          name: "send.acme.example",
          value: `v=spf1 include:spf.${platform} ~all`,
          status: "not_started",
        },
        {
          type: "CNAME",
          name: "mailpulse._domainkey.acme.example",
          value: expect.stringMatching(
            new RegExp(`^k[0-9a-f]{20}\\.dkim\\.${platform.replace(".", "\\.")}$`),
          ),
          status: "not_started",
        },
      ]);
      expect(
        (await call("POST", "/api/sending-domains", { key, json: { domain: "ACME.example" } })).status,
      ).toBe(409);

      // Nothing published yet: each record says what is missing, and sends are still rewritten.
      const nothing = await call("POST", "/api/sending-domains/verify", { key, json: { domainId: id } });
      expect(nothing.status).toBe(200);
      expect(nothing.body).toMatchObject({ id, domain: "acme.example", status: "pending", verified: false });
      expect(nothing.body.records.map((r: { error: string }) => r.error)).toEqual([
        "no MX record at send.acme.example",
        'no SPF record (TXT "v=spf1 ...") at send.acme.example',
        "no CNAME at mailpulse._domainkey.acme.example",
      ]);

      // Wrong values: the errors say what was found and what is expected.
      dns.add("send.acme.example", { type: "MX", value: "mx.elsewhere.example", priority: 10 });
      dns.add("send.acme.example", { type: "TXT", value: "v=spf1 include:other.example ~all" });
      dns.add("mailpulse._domainkey.acme.example", { type: "CNAME", value: "wrong.example" });
      const wrong = await call("POST", "/api/sending-domains/verify", { key, json: { domainId: id } });
      expect(wrong.body.verified).toBe(false);
      expect(wrong.body.records.map((r: { status: string; error: string }) => [r.status, r.error])).toEqual([
        ["failed", `MX at send.acme.example points to mx.elsewhere.example, expected bounces.${platform}`],
        [
          "failed",
          `SPF record at send.acme.example does not include spf.${platform}: found "v=spf1 include:other.example ~all"`,
        ],
        ["failed", `CNAME points to wrong.example, expected ${records[2].value}`],
      ]);

      dns.remove("send.acme.example");
      dns.remove("mailpulse._domainkey.acme.example");
      publish(records);
      const verified = await call("POST", "/api/sending-domains/verify", { key, json: { domainId: id } });
      expect(verified.body).toMatchObject({ id, status: "verified", verified: true });
      expect(verified.body.records.map((r: { status: string }) => r.status)).toEqual([
        "verified",
        "verified",
        "verified",
      ]);
      const listed = await call("GET", "/api/sending-domains", { key });
      expect(listed.body.domains).toEqual([
        { ...created.body, status: "verified", records: verified.body.records },
      ]);

      // Sends from the verified domain keep their From and carry the DKIM key (sealed at rest).
      const sent = await call("POST", "/api/send", {
        key,
        json: {
          from: "News <news@acme.example>",
          to: "x@example.com",
          subject: "S",
          htmlContent: "<p>x</p>",
        },
      });
      expect(sent.body.from).toBe("News <news@acme.example>");
      const message = provider.messages.at(-1)!;
      expect(message.dkim).toMatchObject({ domainName: "acme.example", keySelector: "mailpulse" });
      expect(message.dkim?.privateKey).toContain("BEGIN PRIVATE KEY");
      const [stored] = await target.storage.sendingDomains
        .listAll()
        .then((all) => all.filter((d) => d.id === id));
      expect(stored?.dkimPrivateKey.startsWith("mpenc:v1:")).toBe(true);

      // The operator's zone publishes the key at the CNAME target.
      const platformRecords = await target.mailpulse.sendingDomains.platformRecords();
      expect(platformRecords).toContainEqual({
        type: "TXT",
        name: records[2].value,
        value: `v=DKIM1; k=rsa; p=${stored?.dkimPublicKey}`,
        forDomain: "acme.example",
      });
    });

    it("stores an internationalised domain in punycode and keeps a From written in Unicode", async () => {
      const { key } = await createTenant(target.mailpulse, "Books");
      const call = createApiClient(target.baseUrl);
      const created = await call("POST", "/api/sending-domains", { key, json: { domain: "Bücher.example" } });
      expect(created.body.domain).toBe("xn--bcher-kva.example");
      expect(created.body.records[0].name).toBe("send.xn--bcher-kva.example");
      publish(created.body.records);
      const verified = await call("POST", "/api/sending-domains/verify", {
        key,
        json: { domainId: created.body.id },
      });
      expect(verified.body.verified).toBe(true);
      const sent = await call("POST", "/api/send", {
        key,
        json: { from: "info@bücher.example", to: "x@example.com", subject: "S", htmlContent: "<p>x</p>" },
      });
      expect(sent.body.from).toBe("info@bücher.example");
      expect(provider.messages.at(-1)?.dkim?.domainName).toBe("xn--bcher-kva.example");
    });

    it("lets whoever proves ownership first win: 409 once another organization verified the domain", async () => {
      const first = await createTenant(target.mailpulse, "First");
      const second = await createTenant(target.mailpulse, "Second");
      const call = createApiClient(target.baseUrl);
      const a = await call("POST", "/api/sending-domains", {
        key: first.key,
        json: { domain: "shared.example" },
      });
      // Pending elsewhere: the second organization may add it too.
      const b = await call("POST", "/api/sending-domains", {
        key: second.key,
        json: { domain: "shared.example" },
      });
      expect([a.status, b.status]).toEqual([201, 201]);
      publish(a.body.records);
      expect(
        (await call("POST", "/api/sending-domains/verify", { key: first.key, json: { domainId: a.body.id } }))
          .body.verified,
      ).toBe(true);
      // Even once DNS points at the second organization's key, its verification is refused.
      dns.remove("mailpulse._domainkey.shared.example");
      publish(b.body.records.filter((record: { type: string }) => record.type === "CNAME"));
      const taken = await call("POST", "/api/sending-domains/verify", {
        key: second.key,
        json: { domainId: b.body.id },
      });
      expect(taken).toMatchObject({
        status: 409,
        body: { error: "shared.example is already verified by another organization" },
      });
      const third = await createTenant(target.mailpulse, "Third");
      const refused = await call("POST", "/api/sending-domains", {
        key: third.key,
        json: { domain: "shared.example" },
      });
      expect(refused).toMatchObject({
        status: 409,
        body: { error: "shared.example is already verified by another organization" },
      });
    });

    it("answers 404 for unknown and foreign ids, and deletes", async () => {
      const owner = await createTenant(target.mailpulse, "Owner");
      const other = await createTenant(target.mailpulse, "Other");
      const call = createApiClient(target.baseUrl);
      const created = await call("POST", "/api/sending-domains", {
        key: owner.key,
        json: { domain: "gone.example" },
      });
      const foreignVerify = await call("POST", "/api/sending-domains/verify", {
        key: other.key,
        json: { domainId: created.body.id },
      });
      expect(foreignVerify).toMatchObject({ status: 404, body: { error: "Sending domain not found" } });
      expect(
        (await call("DELETE", `/api/sending-domains/${created.body.id}`, { key: other.key })).status,
      ).toBe(404);
      expect((await call("DELETE", "/api/sending-domains/unknown", { key: owner.key })).status).toBe(404);
      const deleted = await call("DELETE", `/api/sending-domains/${created.body.id}`, { key: owner.key });
      expect(deleted).toMatchObject({ status: 200, body: { success: true } });
      expect((await call("GET", "/api/sending-domains", { key: owner.key })).body).toEqual({ domains: [] });
      expect(
        (await call("DELETE", `/api/sending-domains/${created.body.id}`, { key: owner.key })).status,
      ).toBe(404);
    });

    it("sends a verified domain back to pending after three failed re-checks in a row", async () => {
      const { key } = await createTenant(target.mailpulse, "Flaky");
      const call = createApiClient(target.baseUrl);
      const created = await call("POST", "/api/sending-domains", { key, json: { domain: "flaky.example" } });
      publish(created.body.records);
      await call("POST", "/api/sending-domains/verify", { key, json: { domainId: created.body.id } });
      dns.remove("mailpulse._domainkey.flaky.example");
      const send = () =>
        call("POST", "/api/send", {
          key,
          json: { from: "a@flaky.example", to: "x@example.com", subject: "S", htmlContent: "<p>x</p>" },
        });
      const statusOf = async () =>
        (await call("GET", "/api/sending-domains", { key })).body.domains.find(
          (d: { id: string }) => d.id === created.body.id,
        );

      for (const round of [1, 2]) {
        await target.mailpulse.sendingDomains.recheckVerified(0);
        const domain = await statusOf();
        expect(domain.status, `after failed re-check ${round}`).toBe("verified");
        expect(domain.records[2]).toMatchObject({
          status: "failed",
          error: "no CNAME at mailpulse._domainkey.flaky.example",
        });
        expect((await send()).body.from).toBe("a@flaky.example");
      }
      await target.mailpulse.sendingDomains.recheckVerified(0);
      expect((await statusOf()).status).toBe("pending");
      expect((await send()).body.from).toBe(`a@send.${platform}`);
    });

    it("re-checks only verified domains whose last check is older than the interval", async () => {
      const { key } = await createTenant(target.mailpulse, "Fresh");
      const call = createApiClient(target.baseUrl);
      const created = await call("POST", "/api/sending-domains", { key, json: { domain: "fresh.example" } });
      publish(created.body.records);
      await call("POST", "/api/sending-domains/verify", { key, json: { domainId: created.body.id } });
      const before = dns.queries.length;
      await target.mailpulse.sendingDomains.recheckVerified(60 * 60 * 1000);
      expect(dns.queries.slice(before).filter((q) => q.includes("fresh.example"))).toEqual([]);
    });

    it("mailpulse.start() re-checks verified domains once their last check is older than the interval", async () => {
      const clock = createTestClock("2026-06-01T00:00:00.000Z");
      const day = 24 * 60 * 60 * 1000;
      const instance = await start({
        clock,
        platformDomain: platform,
        domains: { dnsServers: [dns.server], recheckIntervalMs: day },
      });
      try {
        const { key, organization } = await createTenant(instance.mailpulse);
        const call = createApiClient(instance.baseUrl);
        const created = await call("POST", "/api/sending-domains", { key, json: { domain: "job.example" } });
        publish(created.body.records);
        await call("POST", "/api/sending-domains/verify", { key, json: { domainId: created.body.id } });
        dns.remove("mailpulse._domainkey.job.example");
        const stored = () => instance.storage.sendingDomains.get(organization.id, created.body.id);

        // Checked an hour ago: not due, so starting checks nothing.
        clock.advance(60 * 60 * 1000);
        await instance.mailpulse.start();
        await instance.mailpulse.stop();
        expect((await stored())?.failedChecks).toBe(0);

        // A stopped instance stays stopped (its start() does nothing): a day later, a new one
        // over the same storage, as after a restart.
        clock.advance(day);
        const restarted = createMailPulse({
          storage: instance.storage,
          baseUrl: instance.baseUrl,
          clock,
          platformDomain: platform,
          domains: { dnsServers: [dns.server], recheckIntervalMs: day },
          logger: { info() {}, error() {} },
        });
        await restarted.start();
        await restarted.stop(); // waits for the check in progress
        expect(await stored()).toMatchObject({ status: "verified", failedChecks: 1 });
        expect(JSON.parse((await stored())!.records)[2]).toMatchObject({ status: "failed" });
      } finally {
        await instance.close();
      }
    });

    it("answers within the timeout with the error when the DNS server never answers", async () => {
      const silent = await start({
        platformDomain: platform,
        domains: { dnsServers: [silentDns.server], dnsTimeoutMs: 500 },
      });
      try {
        const { key } = await createTenant(silent.mailpulse);
        const call = createApiClient(silent.baseUrl);
        const created = await call("POST", "/api/sending-domains", { key, json: { domain: "slow.example" } });
        const started = Date.now();
        const verified = await call("POST", "/api/sending-domains/verify", {
          key,
          json: { domainId: created.body.id },
        });
        expect(Date.now() - started).toBeLessThan(3000);
        expect(verified.body).toMatchObject({ status: "pending", verified: false });
        expect(verified.body.records.map((r: { error: string }) => r.error)).toEqual([
          "DNS lookup of MX send.slow.example timed out after 500 ms",
          "DNS lookup of TXT send.slow.example timed out after 500 ms",
          "DNS lookup of CNAME mailpulse._domainkey.slow.example timed out after 500 ms",
        ]);
      } finally {
        await silent.close();
      }
    });

    it("calls the provider's domain hooks; a provider error is 400 with its message", async () => {
      const created: string[] = [];
      const deleted: string[] = [];
      const hooked = await start({
        platformDomain: platform,
        domains: { dnsServers: [dns.server] },
        mailProvider: {
          ...memoryProvider(),
          async createDomain({ domain, dkim }) {
            if (domain === "refused.example") throw new Error("domain refused.example is on a blocklist");
            expect(dkim.privateKey).toContain("BEGIN PRIVATE KEY");
            created.push(domain);
          },
          async deleteDomain(domain) {
            deleted.push(domain);
          },
        },
      });
      try {
        const { key } = await createTenant(hooked.mailpulse);
        const call = createApiClient(hooked.baseUrl);
        const refused = await call("POST", "/api/sending-domains", {
          key,
          json: { domain: "refused.example" },
        });
        expect(refused).toMatchObject({
          status: 400,
          body: { error: "The mail provider refused the domain: domain refused.example is on a blocklist" },
        });
        expect((await call("GET", "/api/sending-domains", { key })).body.domains).toEqual([]);
        const ok = await call("POST", "/api/sending-domains", { key, json: { domain: "hooked.example" } });
        await call("DELETE", `/api/sending-domains/${ok.body.id}`, { key });
        expect([created, deleted]).toEqual([["hooked.example"], ["hooked.example"]]);
      } finally {
        await hooked.close();
      }
    });
  });
}
