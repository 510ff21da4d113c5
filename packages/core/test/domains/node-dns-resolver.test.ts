import { type DnsTestServer, startDnsTestServer } from "@mailpulse/testing/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeDnsResolver } from "../../src/dns/node-dns-resolver.js";
import { DnsLookupError } from "../../src/ports/dns-resolver.js";

describe("nodeDnsResolver against a DNS server on loopback", () => {
  let dns: DnsTestServer;
  let silent: DnsTestServer;
  beforeAll(async () => {
    [dns, silent] = await Promise.all([startDnsTestServer(), startDnsTestServer()]);
    silent.silent = true;
    dns.add("s1._domainkey.acme.example", { type: "CNAME", value: "k1.dkim.platform.example" });
    dns.add("send.acme.example", { type: "MX", value: "bounces.platform.example", priority: 10 });
    dns.add("send.acme.example", { type: "TXT", value: "v=spf1 include:spf.platform.example ~all" });
    dns.add("k1.dkim.platform.example", { type: "TXT", value: `v=DKIM1; k=rsa; p=${"A".repeat(392)}` });
  });
  afterAll(async () => {
    await Promise.all([dns?.close(), silent?.close()]);
  });

  it("reads CNAME, MX and TXT records, long TXT values included", async () => {
    const resolver = nodeDnsResolver({ servers: [dns.server] });
    expect(await resolver.resolveCname("S1._domainkey.acme.example")).toEqual(["k1.dkim.platform.example"]);
    expect(await resolver.resolveMx("send.acme.example")).toEqual([
      { exchange: "bounces.platform.example", priority: 10 },
    ]);
    expect(await resolver.resolveTxt("send.acme.example")).toEqual([
      ["v=spf1 include:spf.platform.example ~all"],
    ]);
    const [dkim] = await resolver.resolveTxt("k1.dkim.platform.example");
    expect(dkim?.join("")).toBe(`v=DKIM1; k=rsa; p=${"A".repeat(392)}`);
  });

  it("answers [] for NXDOMAIN and for a name without records of the type", async () => {
    const resolver = nodeDnsResolver({ servers: [dns.server] });
    expect(await resolver.resolveCname("missing.acme.example")).toEqual([]);
    expect(await resolver.resolveCname("send.acme.example")).toEqual([]);
  });

  it("fails with a timeout within the per-query timeout when the server never answers", async () => {
    const resolver = nodeDnsResolver({ servers: [silent.server], timeoutMs: 300 });
    const started = Date.now();
    const error = await resolver.resolveCname("acme.example").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DnsLookupError);
    expect((error as DnsLookupError).reason).toBe("timeout");
    expect((error as Error).message).toBe("DNS lookup of CNAME acme.example timed out after 300 ms");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(silent.queries).toContain("CNAME acme.example");
  });
});
