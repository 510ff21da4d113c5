import { type MemoryProvider, memoryProvider } from "@mailpulse/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestClock } from "../test-clock.js";
import { type ApiTestTarget, createApiClient, createTenant, type StartApiTarget } from "./api-target.js";

/** The email id a 422 of a fully suppressed message names. */
function emailIdOf(error: string): string {
  const match = /\(email ([^)]+)\)$/.exec(error);
  if (!match?.[1]) throw new Error(`no email id in ${error}`);
  return match[1];
}

/**
 * `/api/suppressions` over real HTTP (list, add, remove; organization-scoped; bad input refused)
 * and what the list does to `POST /api/send` and `POST /api/emails` (docs/deliverability.md).
 */
export function suppressionContract(start: StartApiTarget): void {
  describe("suppression list", () => {
    const clock = createTestClock("2026-05-01T08:00:00.000Z");
    let provider: MemoryProvider;
    let target: ApiTestTarget;
    let call: ReturnType<typeof createApiClient>;
    beforeAll(async () => {
      provider = memoryProvider();
      target = await start({ clock, mailProvider: provider, platformDomain: "mailpulse.test" });
      call = createApiClient(target.baseUrl);
    });
    afterAll(async () => {
      await target?.close();
    });

    it("adds addresses by hand, once each, and lists them in address order with filters and pages", async () => {
      const { key } = await createTenant(target.mailpulse);
      const added = await call("POST", "/api/suppressions", {
        key,
        json: { addresses: ["Cy@Example.com", "ann@example.com", " bob@example.com", "ann@EXAMPLE.com"] },
      });
      expect(added.status).toBe(200);
      expect(added.body).toEqual({ added: 3, alreadySuppressed: 0 });

      clock.advance(60_000);
      const again = await call("POST", "/api/suppressions", {
        key,
        json: { addresses: ["ann@example.com", "dee@example.com"], reason: "manual" },
      });
      expect(again.body).toEqual({ added: 1, alreadySuppressed: 1 });

      const all = await call("GET", "/api/suppressions", { key });
      expect(all.status).toBe(200);
      expect(all.body.nextCursor).toBeNull();
      expect(all.body.data.map((entry: { address: string }) => entry.address)).toEqual([
        "ann@example.com",
        "bob@example.com",
        "cy@example.com",
        "dee@example.com",
      ]);
      expect(all.body.data[0]).toEqual({
        address: "ann@example.com",
        reason: "manual",
        sourceEmailId: null,
        status: null,
        diagnostic: null,
        createdAt: "2026-05-01T08:00:00.000Z",
        updatedAt: "2026-05-01T08:01:00.000Z",
      });

      const first = await call("GET", "/api/suppressions?limit=2", { key });
      expect(first.body.data).toHaveLength(2);
      expect(first.body.nextCursor).toBe("bob@example.com");
      const second = await call("GET", `/api/suppressions?limit=2&after=${first.body.nextCursor}`, { key });
      expect(second.body.data.map((entry: { address: string }) => entry.address)).toEqual([
        "cy@example.com",
        "dee@example.com",
      ]);

      const exact = await call("GET", "/api/suppressions?address=BOB%40example.com", { key });
      expect(exact.body.data.map((entry: { address: string }) => entry.address)).toEqual(["bob@example.com"]);
      const prefix = await call("GET", "/api/suppressions?addressPrefix=c", { key });
      expect(prefix.body.data.map((entry: { address: string }) => entry.address)).toEqual(["cy@example.com"]);
      const bounces = await call("GET", "/api/suppressions?reason=hard_bounce", { key });
      expect(bounces.body).toEqual({ data: [], nextCursor: null });
    });

    it("keeps each organization's list to itself", async () => {
      const acme = await createTenant(target.mailpulse, "Acme");
      const beta = await createTenant(target.mailpulse, "Beta");
      await call("POST", "/api/suppressions", { key: acme.key, json: { addresses: ["ann@example.com"] } });
      expect((await call("GET", "/api/suppressions", { key: beta.key })).body.data).toEqual([]);
      const foreign = await call("DELETE", "/api/suppressions/ann@example.com", { key: beta.key });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: "Suppression not found" });
      expect((await call("GET", "/api/suppressions", { key: acme.key })).body.data).toHaveLength(1);
      expect((await call("GET", "/api/suppressions")).status).toBe(401);
    });

    it("lifts a suppression by its percent-encoded address, and 404s an address not suppressed", async () => {
      const { key } = await createTenant(target.mailpulse);
      await call("POST", "/api/suppressions", { key, json: { addresses: ["o'neil+news@example.com"] } });
      const lifted = await call(
        "DELETE",
        `/api/suppressions/${encodeURIComponent("O'Neil+news@example.com")}`,
        {
          key,
        },
      );
      expect(lifted.status).toBe(200);
      expect(lifted.body).toEqual({ success: true });
      expect((await call("GET", "/api/suppressions", { key })).body.data).toEqual([]);
      const gone = await call("DELETE", "/api/suppressions/o'neil%2Bnews%40example.com", { key });
      expect(gone.status).toBe(404);
      expect((await call("DELETE", "/api/suppressions/nobody@example.com", { key })).status).toBe(404);
    });

    it("refuses bad input with a 400 naming it", async () => {
      const { key } = await createTenant(target.mailpulse);
      const refusals: Array<[string, string, unknown, RegExp]> = [
        ["POST", "/api/suppressions", { addresses: ["ann@example.com", "bob@"] }, /"addresses\[1\]"/],
        ["POST", "/api/suppressions", { addresses: [] }, /"addresses": must name at least one address/],
        ["POST", "/api/suppressions", { addresses: "ann@example.com" }, /"addresses"/],
        ["POST", "/api/suppressions", { addresses: ["Ann <ann@example.com>"] }, /"addresses\[0\]"/],
        ["POST", "/api/suppressions", { addresses: ["ann@example.com"], reason: "hard_bounce" }, /"reason"/],
        ["POST", "/api/suppressions", { addresses: ["ann@example.com"], note: "x" }, /unknown field "note"/],
        [
          "POST",
          "/api/suppressions",
          { addresses: Array.from({ length: 1001 }, (_, index) => `u${index}@example.com`) },
          /at most 1000 addresses/,
        ],
        ["GET", "/api/suppressions?reason=bounced", undefined, /"reason": must be one of/],
        ["GET", "/api/suppressions?limit=0", undefined, /"limit"/],
        ["GET", "/api/suppressions?limit=1001", undefined, /"limit": must be at most 1000/],
      ];
      for (const [method, path, json, error] of refusals) {
        const response = await call(method, path, { key, ...(json === undefined ? {} : { json }) });
        expect(response.status, `${method} ${path} ${JSON.stringify(json)?.slice(0, 80)}`).toBe(400);
        expect(response.body.error).toMatch(error);
      }
      // A thousand addresses is within the limit.
      const thousand = await call("POST", "/api/suppressions", {
        key,
        json: { addresses: Array.from({ length: 1000 }, (_, index) => `u${index}@example.com`) },
      });
      expect(thousand.body).toEqual({ added: 1000, alreadySuppressed: 0 });
    });

    it("drops suppressed cc, bcc and to recipients from a send and records them on the email", async () => {
      const { key } = await createTenant(target.mailpulse);
      await call("POST", "/api/suppressions", {
        key,
        json: { addresses: ["gone@example.com", "cc-gone@example.com", "bcc-gone@example.com"] },
      });
      const before = provider.messages.length;
      const sent = await call("POST", "/api/send", {
        key,
        json: {
          from: "news@acme.example",
          to: ["Ann <ann@example.com>", "Gone <GONE@example.com>"],
          cc: ["cc-gone@example.com", "carl@example.com"],
          bcc: "bcc-gone@example.com",
          subject: "Hello",
          htmlContent: "<p>Hi</p>",
        },
      });
      expect(sent.status).toBe(200);
      expect(sent.body.to).toEqual(["Ann <ann@example.com>"]);
      const dropped = [
        { kind: "to", address: "gone@example.com", reason: "manual" },
        { kind: "cc", address: "cc-gone@example.com", reason: "manual" },
        { kind: "bcc", address: "bcc-gone@example.com", reason: "manual" },
      ];
      expect(sent.body.suppressedRecipients).toEqual(dropped);
      expect(provider.messages).toHaveLength(before + 1);
      const message = provider.messages.at(-1)!;
      expect(message.to.map((mailbox) => mailbox.address)).toEqual(["ann@example.com"]);
      expect(message.cc.map((mailbox) => mailbox.address)).toEqual(["carl@example.com"]);
      expect(message.bcc).toEqual([]);

      const email = await call("GET", `/api/emails/${sent.body.emailId}`, { key });
      expect(email.body).toMatchObject({
        status: "sent",
        to: ["Ann <ann@example.com>"],
        cc: ["carl@example.com"],
        bcc: [],
        suppressedRecipients: dropped,
      });
      // Without suppressed recipients the answer has no such field, and the email an empty list.
      const plain = await call("POST", "/api/send", {
        key,
        json: { from: "news@acme.example", to: "ann@example.com", subject: "Hi", htmlContent: "<p>Hi</p>" },
      });
      expect(plain.body.suppressedRecipients).toBeUndefined();
      expect(
        (await call("GET", `/api/emails/${plain.body.emailId}`, { key })).body.suppressedRecipients,
      ).toEqual([]);
    });

    it("sends nothing when every to is suppressed: 422 naming them, and a suppressed email counted nowhere", async () => {
      const { key } = await createTenant(target.mailpulse);
      await call("POST", "/api/suppressions", {
        key,
        json: { addresses: ["ann@example.com", "bob@example.com"] },
      });
      const before = provider.messages.length;
      const refused = await call("POST", "/api/send", {
        key,
        json: {
          from: "news@acme.example",
          to: ["ann@example.com", "Bob <Bob@example.com>"],
          cc: "carl@example.com",
          subject: "Hello",
          htmlContent: "<p>Hi</p>",
          campaignId: "Spring",
        },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatch(
        /^Every "to" recipient is on the suppression list: ann@example\.com \(manual\), bob@example\.com \(manual\); nothing was sent \(email .+\)$/,
      );
      expect(provider.messages).toHaveLength(before);
      const email = await call("GET", `/api/emails/${emailIdOf(refused.body.error)}`, { key });
      expect(email.status).toBe(200);
      expect(email.body).toMatchObject({
        status: "suppressed",
        failureReason: refused.body.error,
        to: ["ann@example.com", "Bob <Bob@example.com>"],
        cc: ["carl@example.com"],
        sentAt: null,
        suppressedRecipients: [
          { kind: "to", address: "ann@example.com", reason: "manual" },
          { kind: "to", address: "bob@example.com", reason: "manual" },
        ],
      });
      // Checked first, before anything is built: the campaign named only by this send is not created.
      expect((await call("GET", "/api/campaigns", { key })).body.campaigns).toEqual([]);
      // An existing campaign gets the suppressed email, counted nowhere.
      const campaign = await call("POST", "/api/campaigns", { key, json: { name: "Autumn" } });
      const again = await call("POST", "/api/send", {
        key,
        json: {
          from: "news@acme.example",
          to: "ann@example.com",
          subject: "S",
          htmlContent: "<p>x</p>",
          campaignId: "Autumn",
        },
      });
      expect(again.status).toBe(422);
      expect((await call("GET", `/api/emails/${emailIdOf(again.body.error)}`, { key })).body.campaignId).toBe(
        campaign.body.id,
      );
      const detail = await call("GET", `/api/campaigns/${campaign.body.id}`, { key });
      expect(detail.body.stats.totalEmails).toBe(0);
      expect((await call("GET", "/api/contacts", { key })).body).toEqual([]);
      expect((await call("GET", "/api/events", { key })).body.data).toEqual([]);

      // Lifted, the address is sent to again.
      await call("DELETE", "/api/suppressions/ann@example.com", { key });
      const resent = await call("POST", "/api/send", {
        key,
        json: {
          from: "news@acme.example",
          to: "ann@example.com",
          subject: "Hello",
          htmlContent: "<p>Hi</p>",
        },
      });
      expect(resent.status).toBe(200);
      expect(provider.messages).toHaveLength(before + 1);
    });

    it("applies the same rule to registered emails", async () => {
      const { key } = await createTenant(target.mailpulse);
      await call("POST", "/api/suppressions", { key, json: { addresses: ["gone@example.com"] } });
      const partly = await call("POST", "/api/emails", {
        key,
        json: { to: ["ann@example.com", "gone@example.com"], subject: "S", htmlContent: "<p>x</p>" },
      });
      expect(partly.status).toBe(201);
      expect(partly.body.suppressedRecipients).toEqual([
        { kind: "to", address: "gone@example.com", reason: "manual" },
      ]);
      expect((await call("GET", `/api/emails/${partly.body.id}`, { key })).body).toMatchObject({
        status: "sent",
        to: ["ann@example.com"],
      });
      const refused = await call("POST", "/api/emails", {
        key,
        json: { to: "Gone@example.com", subject: "S", htmlContent: "<p>x</p>" },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toContain("gone@example.com (manual)");
      const email = await call("GET", `/api/emails/${emailIdOf(refused.body.error)}`, { key });
      expect(email.body).toMatchObject({ status: "suppressed", origin: "register" });
    });
  });
}
