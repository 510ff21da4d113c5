import { generateKeyPairSync, randomBytes } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { smtpProvider } from "@mailpulse/core";
import { type ApiTestTarget, createApiClient, createTenant } from "@mailpulse/testing/contracts";
import {
  type DnsTestServer,
  type SmtpTestServer,
  startDnsTestServer,
  startSmtpTestServer,
} from "@mailpulse/testing/peers";
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTargetStarter } from "../support/start-api-target.js";
import { storageFactories } from "../support/storages.js";

const platform = "platform.example";

// A new user's path: add a domain, publish its records (and the operator its platform TXT
// record), verify, send with their own From over real SMTP, and check the DKIM signature as a
// receiving server would, with mailauth reading the loopback DNS server.
for (const storage of storageFactories) {
  describe(`DKIM-signed sends from a verified domain on ${storage.name}`, () => {
    let dns: DnsTestServer;
    let smtp: SmtpTestServer;
    let target: ApiTestTarget;
    beforeAll(async () => {
      [dns, smtp] = await Promise.all([startDnsTestServer(), startSmtpTestServer()]);
      target = await apiTargetStarter(
        "fetch",
        storage,
      )({
        platformDomain: platform,
        mailProvider: smtpProvider({ url: smtp.url }),
        encryptionKey: randomBytes(32).toString("base64"),
        domains: { dnsServers: [dns.server] },
      });
    });
    afterAll(async () => {
      await Promise.all([target?.close(), smtp?.close(), dns?.close()]);
    });

    /** What a receiving server does: look the key up in DNS, following the CNAME. */
    async function verifyDkim(raw: string) {
      const resolver = new Resolver({ timeout: 2000, tries: 1 });
      resolver.setServers([dns.server]);
      // mailauth's resolver type names only the TXT shape it reads.
      return dkimVerify(raw, {
        resolver: (name, type) => resolver.resolve(name, type) as Promise<string[][]>,
      });
    }

    it("signs with the domain's key and the selector of its CNAME; the signature verifies", async () => {
      const { key } = await createTenant(target.mailpulse);
      const call = createApiClient(target.baseUrl);
      const created = await call("POST", "/api/sending-domains", { key, json: { domain: "acme.example" } });
      for (const record of created.body.records as Array<{ type: string; name: string; value: string }>) {
        if (record.type === "MX") dns.add(record.name, { type: "MX", value: record.value, priority: 10 });
        if (record.type === "TXT") dns.add(record.name, { type: "TXT", value: record.value });
        if (record.type === "CNAME") dns.add(record.name, { type: "CNAME", value: record.value });
      }
      for (const record of await target.mailpulse.sendingDomains.platformRecords()) {
        dns.add(record.name, { type: "TXT", value: record.value });
      }
      const verified = await call("POST", "/api/sending-domains/verify", {
        key,
        json: { domainId: created.body.id },
      });
      expect(verified.body.verified).toBe(true);

      const json = {
        to: "ann@example.com",
        subject: "Signed",
        htmlContent: "<p>Hello <a href='https://x.example/'>x</a></p>",
      };
      await call("POST", "/api/send", {
        key,
        json: { ...json, from: "News <news@acme.example>", campaignId: "News" },
      });
      await call("POST", "/api/send", { key, json: { ...json, from: "a@unverified.example" } });
      const [signed, unsigned] = await smtp.waitForMessages(2);

      expect(signed!.from).toEqual({ name: "News", address: "news@acme.example" });
      expect(signed!.raw).toMatch(/^DKIM-Signature: .*d=acme\.example/m);
      // The return path and the unsubscribe mailto are at send.<domain>, which its SPF record covers.
      expect(signed!.envelope.mailFrom).toMatch(/^bounces\+[a-z2-7]{45}@send\.acme\.example$/);
      expect(signed!.raw.replace(/\r\n(?=[ \t])/g, "")).toMatch(
        /^List-Unsubscribe: .*<mailto:unsubscribe\+[a-z2-7]{45}@send\.acme\.example>\r$/m,
      );
      // RFC 8058: the signature covers both unsubscribe headers.
      const signedHeaders = signed!.raw
        .match(/^DKIM-Signature: ([\s\S]*?)\r\n(?![ \t])/m)?.[1]
        ?.replace(/\r\n[ \t]+/g, "")
        .match(/(?:^|;)\s*h=([^;]+)/)?.[1]
        ?.toLowerCase()
        .split(":");
      expect(signedHeaders).toEqual(expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post"]));
      const result = await verifyDkim(signed!.raw);
      expect(result.results).toHaveLength(1);
      expect(result.results[0]).toMatchObject({
        signingDomain: "acme.example",
        selector: "mailpulse",
        status: { result: "pass" },
      });

      // The check can fail: an altered body does not verify.
      const altered = signed!.raw.replace("Hello", "Hullo");
      const alteredResult = (await verifyDkim(altered)).results[0];
      expect(alteredResult?.status).toMatchObject({ result: "neutral", comment: "body hash did not verify" });

      // And the key in DNS is what makes it pass: another key at the platform's name fails.
      const [platformRecord] = await target.mailpulse.sendingDomains.platformRecords();
      const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({
        type: "spki",
        format: "der",
      });
      dns.remove(platformRecord!.name);
      dns.add(platformRecord!.name, { type: "TXT", value: `v=DKIM1; k=rsa; p=${other.toString("base64")}` });
      expect((await verifyDkim(signed!.raw)).results[0]?.status.result).toBe("fail");

      expect(unsigned!.raw).not.toMatch(/^DKIM-Signature:/m);
      expect(unsigned!.from?.address).toBe(`a@send.${platform}`);
      expect(unsigned!.envelope.mailFrom).toMatch(/^bounces\+[a-z2-7]{45}@send\.platform\.example$/);
    });
  });
}
