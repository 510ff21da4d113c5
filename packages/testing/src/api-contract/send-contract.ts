import { generateKeyPairSync } from "node:crypto";
import type { MemoryProvider } from "@mailpulse/core";
import { describe, expect, it } from "vitest";
import { type ApiTestTarget, createApiClient, createTenant } from "./api-target.js";

/** The platform domain the contract's targets are started with. */
export const contractPlatformDomain = "platform.test";

const newsletter = `<!DOCTYPE html><html><body>
<p>Hi &amp; welcome &mdash; read <A HREF="https://example.com/post?a=1&amp;b=2#top">the post</A>.</p>
<p><a href="mailto:help@example.com">help</a> <a href="https://example.com/{{unsubscribe}}">unsubscribe</a></p>
<p><a href='https://example.com/shop'>shop</a> <a href="https://example.com/shop" data-mailpulse-notrack>untracked</a></p>
</body></html>`;

/** `POST /api/send` and `POST /api/emails`. */
export function sendContract(
  target: () => ApiTestTarget,
  provider: () => MemoryProvider,
  failingTarget: () => ApiTestTarget,
): void {
  describe("sending", () => {
    it("sends a tracked email from send.<platform> with Reply-To the original sender", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      const before = provider().messages.length;
      const response = await call("POST", "/api/send", {
        key,
        json: {
          from: "Ann Example <ann@acme.example>",
          to: ["Bob@Example.com", "carol@example.com"],
          cc: "dave@example.com",
          bcc: ["erin@example.com"],
          subject: "Hello there",
          htmlContent: newsletter,
          metadata: { userId: 42 },
        },
      });
      expect(response.status).toBe(200);
      const body = response.body;
      expect(body).toEqual({
        id: expect.any(String),
        emailId: expect.any(String),
        emailTrackingId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        from: `Ann Example <ann@send.${contractPlatformDomain}>`,
        to: ["Bob@Example.com", "carol@example.com"],
        subject: "Hello there",
        links: [
          {
            originalUrl: "https://example.com/post?a=1&b=2#top",
            trackingId: expect.any(String),
            trackingUrl: expect.any(String),
          },
          {
            originalUrl: "https://example.com/shop",
            trackingId: expect.any(String),
            trackingUrl: expect.any(String),
          },
        ],
        pixelUrl: `${baseUrl}/api/t/o/${body.emailTrackingId}`,
      });
      for (const link of body.links) expect(link.trackingUrl).toBe(`${baseUrl}/api/t/c/${link.trackingId}`);

      expect(provider().messages).toHaveLength(before + 1);
      const sent = provider().messages.at(-1)!;
      expect(sent.id).toBe(body.id);
      expect(sent.from).toEqual({ name: "Ann Example", address: `ann@send.${contractPlatformDomain}` });
      expect(sent.replyTo).toEqual({ address: "ann@acme.example" });
      expect(sent.cc).toEqual([{ address: "dave@example.com" }]);
      expect(sent.bcc).toEqual([{ address: "erin@example.com" }]);
      const expectedHtml = newsletter
        .replace('HREF="https://example.com/post?a=1&amp;b=2#top"', `HREF="${body.links[0].trackingUrl}"`)
        .replace("href='https://example.com/shop'", `href='${body.links[1].trackingUrl}'`)
        .replace(" data-mailpulse-notrack", "")
        .replace(
          "</body>",
          `<img src="${body.pixelUrl}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" /></body>`,
        );
      expect(sent.html).toBe(expectedHtml);
      expect(sent.text).toContain(body.links[0].trackingUrl);
      expect(sent.text).toContain("Hi & welcome — read");
    });

    it("keeps a caller's replyTo, and sends from a verified sending domain as given, DKIM-signed", async () => {
      const { mailpulse, baseUrl, storage } = target();
      const call = createApiClient(baseUrl);
      const { key, organization } = await createTenant(mailpulse);
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
      await storage.sendingDomains.create({
        id: `dom-${organization.id}`,
        organizationId: organization.id,
        domain: "verified.example",
        status: "verified",
        records: "[]",
        dkimSelector: "mailpulse",
        dkimPrivateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        dkimPublicKey: "",
        createdAt: new Date(),
        verifiedAt: new Date(),
        lastCheckedAt: null,
        failedChecks: 0,
      });
      const json = { to: "x@example.com", subject: "S", htmlContent: "<p>x</p>" };
      const verified = await call("POST", "/api/send", {
        key,
        json: { ...json, from: "News <news@Verified.example>" },
      });
      expect(verified.body.from).toBe("News <news@Verified.example>");
      const sent = provider().messages.at(-1)!;
      expect(sent.replyTo).toBeUndefined();
      expect(sent.dkim).toMatchObject({ domainName: "verified.example", keySelector: "mailpulse" });

      const unverified = await call("POST", "/api/send", {
        key,
        json: { ...json, from: "a@other.example", replyTo: "Support <help@other.example>" },
      });
      expect(unverified.body.from).toBe(`a@send.${contractPlatformDomain}`);
      expect(provider().messages.at(-1)!.replyTo).toEqual({ name: "Support", address: "help@other.example" });
    });

    it("builds tracking URLs on the organization's custom tracking domain once it is verified", async () => {
      const { mailpulse, baseUrl, storage } = target();
      const call = createApiClient(baseUrl);
      const { key, organization } = await createTenant(mailpulse);
      const json = {
        from: "a@acme.example",
        to: "b@example.com",
        subject: "S",
        htmlContent: '<a href="https://x.example/">x</a>',
      };
      await storage.organizations.setCustomDomain(organization.id, "track.acme.example");
      const unverified = await call("POST", "/api/send", { key, json });
      expect(unverified.body.pixelUrl.startsWith(`${baseUrl}/api/t/o/`)).toBe(true);
      await storage.organizations.markCustomDomainVerified(organization.id, new Date());
      const verified = await call("POST", "/api/send", { key, json });
      expect(verified.body.pixelUrl).toBe(
        `https://track.acme.example/api/t/o/${verified.body.emailTrackingId}`,
      );
      expect(verified.body.links[0].trackingUrl).toBe(
        `https://track.acme.example/api/t/c/${verified.body.links[0].trackingId}`,
      );
      expect(provider().messages.at(-1)!.html).toContain(verified.body.links[0].trackingUrl);
    });

    it("refuses bad input with 400 naming the field, and stores nothing", async () => {
      const { mailpulse, baseUrl, storage } = target();
      const call = createApiClient(baseUrl);
      const { key, organization } = await createTenant(mailpulse);
      const valid = { from: "a@acme.example", to: "b@example.com", subject: "S", htmlContent: "<p>x</p>" };
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ...valid, from: undefined }, '"from" is required'],
        [{ ...valid, to: undefined }, '"to" is required'],
        [{ ...valid, subject: undefined }, '"subject" is required'],
        [{ ...valid, htmlContent: undefined }, '"htmlContent" is required'],
        [{ ...valid, to: "not-an-address" }, '"to"'],
        [{ ...valid, to: ["ok@example.com", "a@b@c.com"] }, '"to[1]"'],
        [{ ...valid, to: `${"x".repeat(65)}@example.com` }, "local part"],
        [{ ...valid, subject: "Hi\r\nBcc: victim@example.com" }, '"subject"'],
        [{ ...valid, from: "Evil\nBcc: x@y.com <a@acme.example>" }, '"from"'],
        [{ ...valid, replyTo: "a@acme.example\r\nX: y" }, '"replyTo"'],
        [{ ...valid, metadata: { blob: "x".repeat(17 * 1024) } }, '"metadata"'],
        [{ ...valid, metadata: ["not", "an", "object"] }, '"metadata"'],
        [{ ...valid, to: Array.from({ length: 51 }, (_, i) => `r${i}@example.com`) }, "at most 50"],
        [{ ...valid, tracking: { opens: "yes" } }, '"tracking.opens"'],
        [{ ...valid, attachment: { filename: "a.pdf" } }, 'unknown field "attachment"'],
        [{ ...valid, to: "bob@example.com,eve" }, '"to"'],
      ];
      for (const [json, message] of cases) {
        const response = await call("POST", "/api/send", { key, json });
        expect(response.status, JSON.stringify(json).slice(0, 80)).toBe(400);
        expect(response.body.error).toContain(message);
      }
      const malformed = await call("POST", "/api/send", {
        key,
        raw: "{",
        headers: { "content-type": "application/json" },
      });
      expect(malformed.status).toBe(400);
      expect(await storage.emails.list(organization.id, 10)).toEqual([]);
    });

    it("files emails under campaignId by name (creating it) or id; archived campaigns refuse them", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      const json = { from: "a@acme.example", to: "b@example.com", subject: "S", htmlContent: "<p>x</p>" };
      expect((await call("POST", "/api/send", { key, json: { ...json, campaignId: "Autumn" } })).status).toBe(
        200,
      );
      const { body: list } = await call("GET", "/api/campaigns", { key });
      expect(list.campaigns.map((c: { name: string }) => c.name)).toEqual(["Autumn"]);
      const id = list.campaigns[0].id;
      expect((await call("POST", "/api/send", { key, json: { ...json, campaignId: id } })).status).toBe(200);
      expect((await call("GET", `/api/campaigns/${id}`, { key })).body.stats.totalEmails).toBe(2);
      await call("POST", `/api/campaigns/${id}/archive`, { key });
      const refused = await call("POST", "/api/send", { key, json: { ...json, campaignId: "Autumn" } });
      expect(refused).toMatchObject({ status: 400, body: { error: expect.stringContaining("archived") } });
    });

    it("honours the tracking switches", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      const html = '<html><body><a href="https://example.com/a">a</a></body></html>';
      const json = { from: "a@acme.example", to: "b@example.com", subject: "S", htmlContent: html };
      const noClicks = await call("POST", "/api/send", {
        key,
        json: { ...json, tracking: { clicks: false } },
      });
      expect(noClicks.body.links).toEqual([]);
      expect(provider().messages.at(-1)!.html).toContain('<a href="https://example.com/a">');
      expect(provider().messages.at(-1)!.html).toContain(noClicks.body.pixelUrl);
      const noOpens = await call("POST", "/api/send", { key, json: { ...json, tracking: { opens: false } } });
      expect(noOpens.body.links).toHaveLength(1);
      expect(provider().messages.at(-1)!.html).not.toContain("/api/t/o/");
    });

    it("answers 500 Email delivery failed when the provider refuses, keeping the email as failed", async () => {
      const { mailpulse, baseUrl, storage } = failingTarget();
      const call = createApiClient(baseUrl);
      const { key, organization } = await createTenant(mailpulse);
      const response = await call("POST", "/api/send", {
        key,
        json: {
          from: "a@acme.example",
          to: "b@example.com",
          subject: "S",
          htmlContent: "<p>x</p>",
          campaignId: "C",
        },
      });
      expect(response.status).toBe(500);
      const [email] = await storage.emails.list(organization.id, 10);
      expect(response.body).toEqual({ error: `Email delivery failed (email ${email!.id})` });
      expect(email).toMatchObject({ status: "failed", failureReason: expect.stringContaining("refused") });
      const read = await call("GET", `/api/emails/${email!.id}`, { key });
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        id: email!.id,
        status: "failed",
        failureReason: expect.stringContaining("refused"),
        to: ["b@example.com"],
        providerMessageId: null,
        sentAt: null,
      });
      const { body: list } = await call("GET", "/api/campaigns", { key });
      expect(
        (await call("GET", `/api/campaigns/${list.campaigns[0].id}`, { key })).body.stats.totalEmails,
      ).toBe(0);
    });

    it("registers an email sent elsewhere: 201 with the tracked HTML, nothing sent, counted as sent", async () => {
      const { mailpulse, baseUrl } = target();
      const call = createApiClient(baseUrl);
      const { key } = await createTenant(mailpulse);
      const before = provider().messages.length;
      const response = await call("POST", "/api/emails", {
        key,
        json: {
          to: "b@example.com",
          subject: "S",
          htmlContent: '<a href="https://example.com/x">x</a>',
          campaignId: "Reg",
        },
      });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.any(String),
        emailTrackingId: expect.any(String),
        html: expect.stringContaining(response.body.links[0].trackingUrl),
        links: [
          {
            originalUrl: "https://example.com/x",
            trackingId: expect.any(String),
            trackingUrl: expect.any(String),
          },
        ],
        pixelUrl: `${baseUrl}/api/t/o/${response.body.emailTrackingId}`,
      });
      expect(response.body.html).toContain(`<img src="${response.body.pixelUrl}"`);
      expect(provider().messages).toHaveLength(before);
      const { body: list } = await call("GET", "/api/campaigns", { key });
      const detail = await call("GET", `/api/campaigns/${list.campaigns[0].id}`, { key });
      expect(detail.body.emails).toEqual([
        expect.objectContaining({
          trackingId: response.body.emailTrackingId,
          recipient: "b@example.com",
          opens: 0,
        }),
      ]);
    });
  });
}
