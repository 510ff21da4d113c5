import { createMailPulse, type MailPulse, type Storage, smtpProvider } from "@mailpulse/core";
import { type SmtpTestServer, startSmtpTestServer } from "@mailpulse/testing/peers";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { storageFactories } from "../support/storages.js";

// A real SMTP server on loopback refuses the recipient with 550, as a real one would.
for (const storageFactory of storageFactories) {
  describe(`the delivery-failure log line on ${storageFactory.name}`, () => {
    let smtp: SmtpTestServer;
    let storage: Storage;
    let mailpulse: MailPulse;
    const errors: { message: string; error: unknown; fields: unknown }[] = [];

    beforeAll(async () => {
      smtp = await startSmtpTestServer({ reject: () => "mailbox full" });
    });
    afterAll(async () => {
      await smtp.close();
    });
    beforeEach(async () => {
      errors.length = 0;
      storage = await storageFactory.create();
      mailpulse = createMailPulse({
        storage,
        baseUrl: "https://mail.example.com",
        mailProvider: smtpProvider({ url: smtp.url }),
        logger: {
          info: () => {},
          error: (message, error, fields) => errors.push({ message, error, fields }),
        },
      });
    });
    afterEach(async () => {
      await mailpulse.stop();
      await storage.close();
    });

    it("names the email and its recipients, once, when the API answers 500", async () => {
      const organization = await mailpulse.organizations.create({ name: "Acme" });
      const { key } = await mailpulse.apiKeys.create(organization.id);
      const response = await mailpulse.handler(
        new Request("https://mail.example.com/api/send", {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify({
            from: "a@acme.example",
            to: ["Ada <ada@example.com>", "bob@example.com"],
            subject: "Hi",
            htmlContent: "<p>Hi</p>",
          }),
        }),
      );
      expect(response.status).toBe(500);
      const body = (await response.json()) as { error: string };

      expect(errors).toHaveLength(1);
      const [line] = errors;
      const emailId = (line!.fields as { emailId: string }).emailId;
      expect(body).toEqual({ error: `Email delivery failed (email ${emailId})` });
      expect(line!.fields).toEqual({ emailId, to: ["ada@example.com", "bob@example.com"] });
      expect(line!.message).toMatch(
        new RegExp(
          `^MailPulse: delivery of email ${emailId} to ada@example.com, bob@example.com failed: .*mailbox full`,
        ),
      );
      expect((line!.error as Error).message).toContain("mailbox full");
    });

    it("is written for an in-process send too, which throws DELIVERY_FAILED", async () => {
      const organization = await mailpulse.organizations.create({ name: "Acme" });
      await expect(
        mailpulse.emails.send(organization.id, {
          from: "a@acme.example",
          to: "carol@example.com",
          subject: "Hi",
          htmlContent: "<p>Hi</p>",
        }),
      ).rejects.toMatchObject({ code: "DELIVERY_FAILED" });
      expect(errors.map((line) => line.message)).toEqual([
        expect.stringMatching(/^MailPulse: delivery of email \S+ to carol@example.com failed: /),
      ]);
    });
  });
}
