import { smtpProvider } from "@mailpulse/core";
import { createApiClient, createTenant, serverKinds } from "@mailpulse/testing/contracts";
import { type SmtpTestServer, startSmtpTestServer } from "@mailpulse/testing/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_HTML_NESTING_DEPTH } from "../../src/html/html-to-text.js";
import { apiTargetStarter } from "../support/start-api-target.js";
import { storageFactories } from "../support/storages.js";

const nested = (depth: number) =>
  `${"<b>".repeat(depth)}deep <a href="https://a.example/">link</a>${"</b>".repeat(depth)}`;

// Issue 11: 340,000 nested tags blocked every tenant for 46 s and then answered "Email delivery
// failed" without calling the provider. A real SMTP server on loopback shows what was sent.
for (const storage of storageFactories) {
  describe(`HTML nested too deep to read, on ${storage.name}`, () => {
    let smtp: SmtpTestServer;
    beforeAll(async () => {
      smtp = await startSmtpTestServer();
    });
    afterAll(async () => {
      await smtp.close();
    });

    it("is refused with a 400 naming htmlContent, stores nothing and sends nothing", async () => {
      const target = await apiTargetStarter(
        serverKinds[0]!,
        storage,
      )({
        mailProvider: smtpProvider({ url: smtp.url }),
      });
      try {
        const call = createApiClient(target.baseUrl);
        const { key } = await createTenant(target.mailpulse);
        const message = { from: "a@shop.example", to: "b@example.com", subject: "Deep" };
        for (const htmlContent of [nested(MAX_HTML_NESTING_DEPTH + 1), "<b>".repeat(300_000)]) {
          const refused = await call("POST", "/api/send", {
            key,
            json: { ...message, htmlContent, campaignId: "Deep" },
          });
          expect(refused.status).toBe(400);
          expect(refused.body).toEqual({
            error: `Invalid request body: "htmlContent": nests elements more than ${MAX_HTML_NESTING_DEPTH} levels deep`,
          });
        }
        const contacts = await call("GET", "/api/contacts", { key });
        expect(contacts.body).toEqual([]);

        // A caller-written text part needs no conversion: the same HTML is sent.
        const withText = await call("POST", "/api/send", {
          key,
          json: { ...message, htmlContent: nested(MAX_HTML_NESTING_DEPTH + 1), text: "Plain" },
        });
        expect(withText.status).toBe(200);
        const sentDeep = await call("POST", "/api/send", {
          key,
          json: { ...message, htmlContent: nested(MAX_HTML_NESTING_DEPTH - 1) },
        });
        expect(sentDeep.status).toBe(200);
        const received = await smtp.waitForMessages(2);
        expect(received.map((mail) => mail.text?.trim())).toEqual([
          "Plain",
          `deep link (${sentDeep.body.links[0].trackingUrl})`,
        ]);
      } finally {
        await target.close();
      }
    });
  });
}
