import { createMailPulse, memoryProvider, smtpProvider } from "@mailpulse/core";
import { type ApiTestTarget, createApiClient, createTenant, serverKinds } from "@mailpulse/testing/contracts";
import { type SmtpTestServer, startSmtpTestServer } from "@mailpulse/testing/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRecipientToken } from "../../src/services/feedback/recipient-token.js";
import { apiTargetStarter } from "../support/start-api-target.js";
import { storageFactories } from "../support/storages.js";

const platform = "mailpulse.test";

/** One header of a raw message, unfolded (RFC 5322: a CRLF before whitespace is removed); every occurrence. */
function rawHeaders(raw: string, name: string): string[] {
  const head = raw.slice(0, raw.indexOf("\r\n\r\n")).replace(/\r\n(?=[ \t])/g, "");
  const prefix = `${name.toLowerCase()}:`;
  return head
    .split("\r\n")
    .filter((line) => line.toLowerCase().startsWith(prefix))
    .map((line) => line.slice(prefix.length).trim());
}

// The send side of the delivery lifecycle, through a real SMTP server on loopback: per-recipient
// return paths, send-time rejections, one-click unsubscribe headers and the placeholder.
for (const storage of storageFactories) {
  describe(`return paths, send-time rejections and unsubscribe headers on ${storage.name}`, () => {
    let smtp: SmtpTestServer;
    let target: ApiTestTarget;
    let call: ReturnType<typeof createApiClient>;
    beforeAll(async () => {
      smtp = await startSmtpTestServer({
        rejectRecipient: (address) => {
          if (address.startsWith("gone")) return { code: 550, message: "5.1.1 User unknown" };
          if (address.startsWith("busy")) return { code: 450, message: "4.2.1 Mailbox busy, try later" };
          if (address.startsWith("full")) return { code: 552, message: "5.2.2 Mailbox full" };
          return undefined;
        },
      });
      target = await apiTargetStarter(
        serverKinds[0]!,
        storage,
      )({
        mailProvider: smtpProvider({ url: smtp.url }),
        platformDomain: platform,
        signingSecret: "s".repeat(40),
      });
      call = createApiClient(target.baseUrl);
    });
    afterAll(async () => {
      await target?.close();
      await smtp?.close();
    });

    /** Sends and answers the messages the SMTP server received for it (one per recipient). */
    async function send(key: string, json: Record<string, unknown>, expected: number) {
      const before = smtp.messages.length;
      const sent = await call("POST", "/api/send", {
        key,
        json: { from: "team@shop.example", subject: "Hi", ...json },
      });
      const received = (await smtp.waitForMessages(before + expected)).slice(before);
      return { sent, received };
    }

    it("gives every recipient its own signed return path that names the email and the recipient", async () => {
      const { key, organization } = await createTenant(target.mailpulse);
      const { sent, received } = await send(
        key,
        {
          to: ["Ann <Ann@example.com>", "bob@example.com"],
          cc: "carol@example.com",
          bcc: "dave@example.com",
          htmlContent: "<p>x</p>",
        },
        4,
      );
      expect(sent.status).toBe(200);
      const email = await target.storage.emails.get(organization.id, sent.body.emailId);
      const signingKey = await target.mailpulse.signingKey.key();
      const froms = new Set<string>();
      for (const message of received) {
        expect(message.envelope.rcptTo).toHaveLength(1);
        const match = /^bounces\+([a-z2-7]{45})@send\.mailpulse\.test$/.exec(message.envelope.mailFrom);
        expect(match, message.envelope.mailFrom).not.toBeNull();
        const reference = readRecipientToken(match![1]!, "return-path", signingKey);
        expect(reference?.trackingId).toBe(sent.body.emailTrackingId);
        expect(email!.recipients[reference!.recipientIndex]?.address).toBe(
          message.envelope.rcptTo[0]!.toLowerCase(),
        );
        froms.add(message.envelope.mailFrom);
        // The token is for return paths only: it does not read as an unsubscribe token.
        expect(readRecipientToken(match![1]!, "unsubscribe", signingKey)).toBeUndefined();
      }
      expect(froms.size).toBe(4);
      // One message, built and signed once: the same bytes in every transaction.
      expect(new Set(received.map((message) => message.raw)).size).toBe(1);
      expect(received[0]!.raw).not.toContain("dave@example.com");
      expect(received[0]!.messageId).toBe(sent.body.id);
    });

    it("records a 550 at RCPT as a hard bounce (suppressed, 5.1.1); the next send to it reaches nobody", async () => {
      const { key } = await createTenant(target.mailpulse);
      const { sent, received } = await send(
        key,
        { to: ["ann@example.com", "gone@example.com"], htmlContent: "<p>x</p>" },
        1,
      );
      expect(sent.status).toBe(200);
      expect(received[0]!.envelope.rcptTo).toEqual(["ann@example.com"]);
      expect(sent.body.to).toEqual(["ann@example.com", "gone@example.com"]);
      expect(sent.body.rejectedRecipients).toEqual([
        {
          address: "gone@example.com",
          bounceType: "hard",
          status: "5.1.1",
          diagnostic: "550 5.1.1 User unknown",
        },
      ]);
      const listed = await call("GET", "/api/suppressions?address=gone@example.com", { key });
      expect(listed.body.data).toEqual([
        expect.objectContaining({
          address: "gone@example.com",
          reason: "hard_bounce",
          status: "5.1.1",
          sourceEmailId: sent.body.emailId,
        }),
      ]);

      const refusedBefore = smtp.refusedRecipients.length;
      const messagesBefore = smtp.messages.length;
      const again = await call("POST", "/api/send", {
        key,
        json: {
          from: "team@shop.example",
          to: "gone@example.com",
          subject: "Again",
          htmlContent: "<p>x</p>",
        },
      });
      expect(again.status).toBe(422);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(smtp.refusedRecipients.length).toBe(refusedBefore);
      expect(smtp.messages.length).toBe(messagesBefore);
    });

    it("records a 450 as soft (not suppressed); a send whose every recipient is refused fails, its bounces recorded", async () => {
      const { key, organization } = await createTenant(target.mailpulse);
      const { sent } = await send(
        key,
        { to: ["ann@example.com", "busy@example.com"], cc: "full@example.com", htmlContent: "<p>x</p>" },
        1,
      );
      expect(sent.body.rejectedRecipients).toEqual([
        {
          address: "busy@example.com",
          bounceType: "soft",
          status: "4.2.1",
          diagnostic: "450 4.2.1 Mailbox busy, try later",
        },
        // A full mailbox is soft even as a 5xx, as in returned mail (docs/deliverability.md).
        {
          address: "full@example.com",
          bounceType: "soft",
          status: "5.2.2",
          diagnostic: "552 5.2.2 Mailbox full",
        },
      ]);
      expect((await call("GET", "/api/suppressions", { key })).body.data).toEqual([]);

      const failed = await call("POST", "/api/send", {
        key,
        json: {
          from: "team@shop.example",
          to: "gone2@example.com",
          cc: "busy2@example.com",
          subject: "Nowhere",
          htmlContent: "<p>x</p>",
        },
      });
      expect(failed.status).toBe(500);
      const emailId = /\(email ([^)]+)\)$/.exec(failed.body.error)?.[1];
      const email = await target.storage.emails.get(organization.id, emailId!);
      expect(email).toMatchObject({
        status: "failed",
        failureReason: expect.stringContaining("550 5.1.1 User unknown"),
      });
      const suppressions = await call("GET", "/api/suppressions", { key });
      expect(suppressions.body.data.map((entry: { address: string }) => entry.address)).toEqual([
        "gone2@example.com",
      ]);
      expect(suppressions.body.data[0]).toMatchObject({ reason: "hard_bounce", sourceEmailId: emailId });
    });

    it("puts the one-click headers on campaign mail, exactly; none with unsubscribe: false; the caller's own is kept", async () => {
      const { key, organization } = await createTenant(target.mailpulse);
      const { sent, received } = await send(
        key,
        { to: ["ann@example.com", "bob@example.com"], campaignId: "Newsletter", htmlContent: "<p>x</p>" },
        2,
      );
      const raw = received[0]!.raw;
      const [listUnsubscribe, ...more] = rawHeaders(raw, "List-Unsubscribe");
      expect(more).toEqual([]);
      const match =
        /^<(http:\/\/[^>]+)\/api\/u\/([a-z2-7]{45})>, <mailto:unsubscribe\+([a-z2-7]{45})@send\.mailpulse\.test>$/.exec(
          listUnsubscribe ?? "",
        );
      expect(match, listUnsubscribe).not.toBeNull();
      expect(match![1]).toBe(target.baseUrl);
      expect(match![3]).toBe(match![2]);
      expect(rawHeaders(raw, "List-Unsubscribe-Post")).toEqual(["List-Unsubscribe=One-Click"]);
      // It names the first `to` recipient of this email.
      const signingKey = await target.mailpulse.signingKey.key();
      expect(readRecipientToken(match![2]!, "unsubscribe", signingKey)).toEqual({
        trackingId: sent.body.emailTrackingId,
        recipientIndex: 0,
      });
      const email = await target.storage.emails.get(organization.id, sent.body.emailId);
      expect(email!.recipients[0]!.address).toBe("ann@example.com");

      const optedOut = await send(
        key,
        { to: "ann@example.com", campaignId: "Newsletter", unsubscribe: false, htmlContent: "<p>x</p>" },
        1,
      );
      expect(rawHeaders(optedOut.received[0]!.raw, "List-Unsubscribe")).toEqual([]);
      expect(rawHeaders(optedOut.received[0]!.raw, "List-Unsubscribe-Post")).toEqual([]);

      const transactional = await send(key, { to: "ann@example.com", htmlContent: "<p>x</p>" }, 1);
      expect(rawHeaders(transactional.received[0]!.raw, "List-Unsubscribe")).toEqual([]);

      const own = await send(
        key,
        {
          to: "ann@example.com",
          campaignId: "Newsletter",
          headers: { "List-Unsubscribe": "<mailto:leave@shop.example>" },
          htmlContent: "<p>x</p>",
        },
        1,
      );
      expect(rawHeaders(own.received[0]!.raw, "List-Unsubscribe")).toEqual(["<mailto:leave@shop.example>"]);
      expect(rawHeaders(own.received[0]!.raw, "List-Unsubscribe-Post")).toEqual([]);

      const asked = await send(key, { to: "ann@example.com", unsubscribe: true, htmlContent: "<p>x</p>" }, 1);
      expect(rawHeaders(asked.received[0]!.raw, "List-Unsubscribe-Post")).toEqual([
        "List-Unsubscribe=One-Click",
      ]);
    });

    it("fills {{unsubscribe_url}} in the html and the text with the same URL, never tracked", async () => {
      const { key } = await createTenant(target.mailpulse);
      const htmlContent =
        '<p><a href="https://shop.example/sale">Sale</a> <a href="{{unsubscribe_url}}">Unsubscribe</a> or paste {{unsubscribe_url}}</p>';
      const { sent, received } = await send(
        key,
        { to: "ann@example.com", htmlContent, text: "Leave: {{unsubscribe_url}}" },
        1,
      );
      expect(sent.status).toBe(200);
      const url = /^<([^>]+)>/.exec(rawHeaders(received[0]!.raw, "List-Unsubscribe")[0] ?? "")?.[1];
      expect(url).toMatch(/\/api\/u\/[a-z2-7]{45}$/);
      expect(sent.body.links.map((link: { originalUrl: string }) => link.originalUrl)).toEqual([
        "https://shop.example/sale",
      ]);
      const link = sent.body.links[0].trackingUrl;
      const expectedHtml = `<p><a href="${link}">Sale</a> <a href="${url}">Unsubscribe</a> or paste ${url}</p><img src="${sent.body.pixelUrl}"`;
      expect(received[0]!.html).toContain(expectedHtml);
      expect(received[0]!.text?.trim()).toBe(`Leave: ${url}`);

      // Without a text part, the generated one carries the URL too.
      const generated = await send(
        key,
        { to: "ann@example.com", htmlContent: '<a href="{{unsubscribe_url}}">Bye</a>' },
        1,
      );
      expect(generated.received[0]!.text).toMatch(/Bye \(http:\/\/[^)]+\/api\/u\/[a-z2-7]{45}\)/);

      // Asked for no unsubscribe, a placeholder would go out unreplaced: refused before anything is stored.
      const refused = await call("POST", "/api/send", {
        key,
        json: {
          from: "a@shop.example",
          to: "ann@example.com",
          subject: "S",
          htmlContent,
          unsubscribe: false,
        },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain('"unsubscribe"');

      // 100 placeholders are filled; one more, in the html or the text, is refused before anything is built.
      const many = await send(
        key,
        {
          to: "ann@example.com",
          htmlContent: "{{unsubscribe_url}} ".repeat(100),
          text: "{{unsubscribe_url}}".repeat(100),
        },
        1,
      );
      expect(many.sent.status).toBe(200);
      expect(many.received[0]!.text).not.toContain("{{unsubscribe_url}}");
      for (const [field, body] of [
        ["htmlContent", { htmlContent: "{{unsubscribe_url}}".repeat(101) }],
        ["text", { htmlContent: "<p>x</p>", text: "{{unsubscribe_url}} ".repeat(101) }],
      ] as const) {
        const before = smtp.messages.length;
        const tooMany = await call("POST", "/api/send", {
          key,
          json: { from: "a@shop.example", to: "ann@example.com", subject: "S", ...body },
        });
        expect(tooMany).toMatchObject({
          status: 400,
          body: { error: `Invalid request body: "${field}": holds {{unsubscribe_url}} more than 100 times` },
        });
        expect(smtp.messages.length).toBe(before);
      }
    });

    it("checks the suppression list first: a fully suppressed send creates no campaign", async () => {
      const { key } = await createTenant(target.mailpulse);
      await call("POST", "/api/suppressions", { key, json: { addresses: ["ann@example.com"] } });
      const refused = await call("POST", "/api/send", {
        key,
        json: {
          from: "a@shop.example",
          to: "ann@example.com",
          subject: "S",
          htmlContent: "<p>x</p>",
          campaignId: "Never created",
        },
      });
      expect(refused.status).toBe(422);
      expect((await call("GET", "/api/campaigns", { key })).body.campaigns).toEqual([]);
    });
  });
}

describe("the signing key at send time", () => {
  it("is read from the storage once, not per send, and signs every return path", async () => {
    const storage = await storageFactories[0]!.create();
    const secret = Buffer.alloc(32, 7).toString("base64url");
    let reads = 0;
    // Counts what the storage is asked; the secret is fixed so the tokens can be read back with it.
    Object.assign(storage, {
      instanceSecrets: {
        getOrCreate: async () => {
          reads += 1;
          return secret;
        },
      },
    });
    const provider = memoryProvider();
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "https://mail.example.com",
      platformDomain: platform,
      mailProvider: provider,
      logger: { info: () => {}, error: () => {} },
    });
    try {
      const { organization } = await createTenant(mailpulse);
      const sends = await Promise.all(
        [1, 2, 3].map((n) =>
          mailpulse.emails.send(organization.id, {
            from: "a@shop.example",
            to: `reader${n}@example.com`,
            subject: "S",
            htmlContent: "<p>x</p>",
          }),
        ),
      );
      await mailpulse.emails.send(organization.id, {
        from: "a@shop.example",
        to: "reader4@example.com",
        subject: "S",
        htmlContent: "<p>x</p>",
      });
      expect(reads).toBe(1);
      const key = Buffer.from(secret, "base64url");
      for (const [index, sent] of sends.entries()) {
        const captured = provider.messages.find((message) => message.id === sent.id);
        const token = /^bounces\+([a-z2-7]{45})@/.exec(captured!.envelopes![0]!.from)?.[1];
        expect(readRecipientToken(token!, "return-path", key), `send ${index}`).toEqual({
          trackingId: sent.emailTrackingId,
          recipientIndex: 0,
        });
      }
    } finally {
      await mailpulse.stop();
      await storage.close();
    }
  });
});
