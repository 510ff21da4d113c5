import { smtpProvider } from "@mailpulse/core";
import { createApiClient, createTenant, serverKinds } from "@mailpulse/testing/contracts";
import { type SmtpTestServer, startSmtpTestServer } from "@mailpulse/testing/peers";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTargetStarter } from "../support/start-api-target.js";
import { storageFactories } from "../support/storages.js";

const pdfBytes = Buffer.from("%PDF-1.4\n% a tiny test file\n\x00\x01\x02\xff", "latin1");

// The fields Resend and Postmark users expect, sent through a real SMTP server on loopback and
// read back with mailparser; on SQLite and PostgreSQL.
for (const storage of storageFactories) {
  describe(`send fields on ${storage.name}`, () => {
    let smtp: SmtpTestServer;
    beforeAll(async () => {
      smtp = await startSmtpTestServer({
        reject: (envelope) =>
          envelope.rcptTo.includes("blocked@example.com") ? "mailbox unavailable" : undefined,
      });
    });
    afterAll(async () => {
      await smtp.close();
    });

    const start = () =>
      apiTargetStarter(serverKinds[0]!, storage)({ mailProvider: smtpProvider({ url: smtp.url }) });
    const valid = { from: "a@shop.example", to: "b@example.com", subject: "S", htmlContent: "<p>x</p>" };

    it("delivers attachments and custom headers, and stores tags returned by GET /api/emails/:id", async () => {
      const target = await start();
      try {
        const call = createApiClient(target.baseUrl);
        const { key } = await createTenant(target.mailpulse);
        const before = smtp.messages.length;
        const sent = await call("POST", "/api/send", {
          key,
          json: {
            ...valid,
            text: "Your invoice is attached.",
            attachments: [
              {
                filename: "invoice.pdf",
                content: pdfBytes.toString("base64"),
                contentType: "application/pdf",
              },
              // MIME-style base64 with line breaks is accepted; the type is guessed from the name.
              { filename: "notes.txt", content: "aGVs\nbG8g\r\nd29y bGQ=" },
            ],
            headers: { "List-Unsubscribe": "<https://shop.example/u/1>", "X-Entity-Ref-ID": "order-42" },
            tags: [
              { name: "category", value: "invoice" },
              { name: "customer_id", value: "c-42" },
            ],
            metadata: { orderId: 42 },
          },
        });
        expect(sent.status).toBe(200);
        const [received] = (await smtp.waitForMessages(before + 1)).slice(before);
        const parsed = await simpleParser(received!.raw);
        expect(
          parsed.attachments.map((a) => [a.filename, a.contentType, a.content.toString("base64")]),
        ).toEqual([
          ["invoice.pdf", "application/pdf", pdfBytes.toString("base64")],
          ["notes.txt", "text/plain", Buffer.from("hello world").toString("base64")],
        ]);
        expect(parsed.text?.trim()).toBe("Your invoice is attached.");
        expect(received!.raw).toContain("List-Unsubscribe: <https://shop.example/u/1>");
        expect(received!.raw).toMatch(/^X-Entity-Ref-ID: order-42\r?$/im);
        expect(received!.raw.toLowerCase()).toContain(
          `x-mailpulse-tracking-id: ${sent.body.emailTrackingId}`.toLowerCase(),
        );

        const read = await call("GET", `/api/emails/${sent.body.emailId}`, { key });
        expect(read.status).toBe(200);
        expect(read.body).toEqual({
          id: sent.body.emailId,
          emailTrackingId: sent.body.emailTrackingId,
          status: "sent",
          failureReason: null,
          origin: "send",
          from: "a@send.127.0.0.1",
          replyTo: "a@shop.example",
          to: ["b@example.com"],
          cc: [],
          bcc: [],
          suppressedRecipients: [],
          subject: "S",
          campaignId: null,
          metadata: { orderId: 42 },
          tags: [
            { name: "category", value: "invoice" },
            { name: "customer_id", value: "c-42" },
          ],
          providerMessageId: sent.body.id,
          opens: 0,
          clicks: 0,
          createdAt: expect.any(String),
          sentAt: expect.any(String),
        });
        await call("GET", `/api/t/o/${sent.body.emailTrackingId}`, {});
        expect((await call("GET", `/api/emails/${sent.body.emailId}`, { key })).body.opens).toBe(1);

        const other = await createTenant(target.mailpulse);
        expect((await call("GET", `/api/emails/${sent.body.emailId}`, { key: other.key })).status).toBe(404);
        expect((await call("GET", "/api/emails/nope", { key })).body).toEqual({ error: "Email not found" });
      } finally {
        await target.close();
      }
    });

    it("shows a failed send, with the provider's reason, through GET /api/emails/:id", async () => {
      const target = await start();
      try {
        const call = createApiClient(target.baseUrl);
        const { key } = await createTenant(target.mailpulse);
        const failed = await call("POST", "/api/send", {
          key,
          json: { ...valid, to: "blocked@example.com", tags: [{ name: "kind", value: "receipt" }] },
        });
        expect(failed.status).toBe(500);
        const emailId = /\(email ([\w-]+)\)$/.exec(failed.body.error)?.[1];
        const read = await call("GET", `/api/emails/${emailId}`, { key });
        expect(read.body).toMatchObject({
          status: "failed",
          failureReason: expect.stringContaining("mailbox unavailable"),
          to: ["blocked@example.com"],
          tags: [{ name: "kind", value: "receipt" }],
          sentAt: null,
        });
      } finally {
        await target.close();
      }
    });

    it("refuses what it cannot deliver as asked with 400 naming the field, and stores nothing", async () => {
      const target = await start();
      try {
        const call = createApiClient(target.baseUrl);
        const { key, organization } = await createTenant(target.mailpulse);
        const manyLinks = Array.from({ length: 1001 }, (_, i) => `<a href="https://x.example/${i}">${i}</a>`);
        const cases: Array<[string, Record<string, unknown>, string]> = [
          ["unknown fields", { ...valid, attachment: "x", tag: "y" }, 'unknown fields "attachment", "tag"'],
          [
            "a path instead of content",
            { ...valid, attachments: [{ filename: "a", path: "/etc/passwd" }] },
            '"attachments[0]": unknown field "path"',
          ],
          [
            "a URL instead of content",
            { ...valid, attachments: [{ filename: "a", href: "http://10.0.0.1/" }] },
            'unknown field "href"',
          ],
          ["no content", { ...valid, attachments: [{ filename: "a.txt" }] }, '"attachments[0].content"'],
          [
            "content that is not base64",
            { ...valid, attachments: [{ filename: "a", content: "%%%" }] },
            "not valid base64",
          ],
          [
            "a file name that is a path",
            { ...valid, attachments: [{ filename: "../a", content: "" }] },
            '"attachments[0].filename"',
          ],
          [
            "attachments past 10 MiB",
            { ...valid, attachments: [{ filename: "a", content: "A".repeat(14_000_000) }] },
            "at most 10485760 bytes",
          ],
          [
            "a header MailPulse writes",
            { ...valid, headers: { Bcc: "spy@example.com" } },
            '"headers.Bcc" is set by MailPulse',
          ],
          [
            "a Content-* header",
            { ...valid, headers: { "content-type": "text/plain" } },
            '"headers.content-type"',
          ],
          [
            "a header value with a line break",
            { ...valid, headers: { "X-A": "1\r\nBcc: x@y.z" } },
            '"headers.X-A"',
          ],
          ["a tag with a space", { ...valid, tags: [{ name: "a b", value: "c" }] }, '"tags[0].name"'],
          [
            "a repeated tag name",
            {
              ...valid,
              tags: [
                { name: "a", value: "1" },
                { name: "a", value: "2" },
              ],
            },
            '"tags[1].name"',
          ],
          ["two addresses in one string", { ...valid, to: "bob@example.com,eve" }, '"to"'],
          ["a comma-joined list", { ...valid, to: "bob@example.com, eve@example.com" }, '"to"'],
          ["a non-ASCII local part", { ...valid, to: "jösé@example.com" }, "SMTPUTF8"],
          ["a domain label too long", { ...valid, to: `b@${"x".repeat(64)}.example` }, "invalid label"],
          ["a domain with an underscore", { ...valid, to: "b@ex_ample.com" }, "invalid label"],
          ["a dot at the end of the local part", { ...valid, to: "bob.@example.com" }, "local part"],
          [
            "51 recipients in to, cc and bcc",
            {
              ...valid,
              to: Array.from({ length: 30 }, (_, i) => `t${i}@example.com`),
              cc: Array.from({ length: 21 }, (_, i) => `c${i}@example.com`),
            },
            "at most 50 recipients",
          ],
          ["NUL in the subject", { ...valid, subject: "a\u0000b" }, '"subject"'],
          [
            "NUL in the HTML",
            { ...valid, htmlContent: "<p>\u0000</p>" },
            '"htmlContent": must not contain NUL',
          ],
          ["NUL in the text", { ...valid, text: "\u0000" }, '"text"'],
          ["NUL in a metadata value", { ...valid, metadata: { a: { b: ["x\u0000"] } } }, '"metadata.a.b[0]"'],
          ["NUL in a metadata key", { ...valid, metadata: { "k\u0000": 1 } }, '"metadata.k'],
          ["NUL in campaignId", { ...valid, campaignId: "Spring\u0000" }, '"campaignId"'],
          [
            "a subject of 999 characters",
            { ...valid, subject: "x".repeat(999) },
            '"subject": must be at most 998',
          ],
          [
            "1,001 trackable links",
            { ...valid, htmlContent: manyLinks.join("") },
            '"htmlContent": has more than 1000 trackable links',
          ],
        ];
        for (const [what, json, message] of cases) {
          const response = await call("POST", "/api/send", { key, json });
          expect(response.status, what).toBe(400);
          expect(response.body.error, what).toContain(message);
        }
        const register = await call("POST", "/api/emails", { key, json: { ...valid, attachments: [] } });
        expect(register.body).toEqual({ error: 'Invalid request body: unknown field "attachments"' });
        const campaign = await call("POST", "/api/campaigns", { key, json: { name: "A\u0000" } });
        expect(campaign).toMatchObject({ status: 400, body: { error: expect.stringContaining('"name"') } });
        // A control character in a path id is no id MailPulse made: 404 on both dialects (docs/limits.md).
        for (const path of ["/api/emails/%00", "/api/campaigns/a%00", "/api/campaigns/a%00/stats"]) {
          const response = await call("GET", path, { key });
          expect(response.status, path).toBe(404);
          expect(response.body, path).toEqual({ error: expect.any(String) });
        }
        expect(await target.storage.emails.list(organization.id, 10)).toEqual([]);
        expect((await call("GET", "/api/campaigns", { key })).body).toEqual({ campaigns: [] });
      } finally {
        await target.close();
      }
    });

    it("keeps a __proto__ key of metadata as data, and a custom header named __proto__ as a header; IDN domains go out in punycode", async () => {
      const target = await start();
      try {
        const call = createApiClient(target.baseUrl);
        const { key } = await createTenant(target.mailpulse);
        const before = smtp.messages.length;
        const sent = await call("POST", "/api/send", {
          key,
          raw: JSON.stringify({ ...valid, to: "ann@bücher.example" }).replace(
            /}$/,
            ',"metadata":{"__proto__":{"admin":true},"plain":1},"headers":{"__proto__":"kept"}}',
          ),
          headers: { "content-type": "application/json" },
        });
        expect(sent.status).toBe(200);
        const [received] = (await smtp.waitForMessages(before + 1)).slice(before);
        // Punycode on the wire: no SMTPUTF8 needed (smtp-server shows the envelope decoded).
        expect(received!.raw).toMatch(/^To: ann@xn--bcher-kva\.example\r?$/m);
        expect(received!.raw).toMatch(/^__proto__: kept\r?$/im);
        const read = await call("GET", `/api/emails/${sent.body.emailId}`, { key });
        expect(JSON.stringify(read.body.metadata)).toBe('{"__proto__":{"admin":true},"plain":1}');
      } finally {
        await target.close();
      }
    });
  });
}
