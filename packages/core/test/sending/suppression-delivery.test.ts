import { smtpProvider } from "@mailpulse/core";
import { createApiClient, createTenant, serverKinds } from "@mailpulse/testing/contracts";
import { type SmtpTestServer, startSmtpTestServer } from "@mailpulse/testing/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTargetStarter } from "../support/start-api-target.js";
import { storageFactories } from "../support/storages.js";

// What a suppressed address receives, asked of a real SMTP server on loopback: nothing.
for (const storage of storageFactories) {
  describe(`the suppression list at send time, through real SMTP on ${storage.name}`, () => {
    let smtp: SmtpTestServer;
    beforeAll(async () => {
      smtp = await startSmtpTestServer();
    });
    afterAll(async () => {
      await smtp.close();
    });

    it("delivers nothing to a suppressed to, and drops a suppressed bcc while the others receive the message", async () => {
      const target = await apiTargetStarter(
        serverKinds[0]!,
        storage,
      )({ mailProvider: smtpProvider({ url: smtp.url }), platformDomain: "mailpulse.test" });
      try {
        const call = createApiClient(target.baseUrl);
        const { key } = await createTenant(target.mailpulse);
        const suppressed = await call("POST", "/api/suppressions", {
          key,
          json: { addresses: ["bounced@example.com", "Audit@Example.com"] },
        });
        expect(suppressed.body).toEqual({ added: 2, alreadySuppressed: 0 });

        const refused = await call("POST", "/api/send", {
          key,
          json: {
            from: "team@shop.example",
            to: "Bounced <BOUNCED@example.com>",
            cc: "carol@example.com",
            subject: "Never delivered",
            htmlContent: "<p>x</p>",
          },
        });
        expect(refused.status).toBe(422);
        expect(refused.body.error).toContain("bounced@example.com (manual)");
        const emailId = /\(email ([^)]+)\)$/.exec(refused.body.error)?.[1];
        const email = await call("GET", `/api/emails/${emailId}`, { key });
        expect(email.body).toMatchObject({ status: "suppressed", providerMessageId: null, sentAt: null });

        const sent = await call("POST", "/api/send", {
          key,
          json: {
            from: "team@shop.example",
            to: ["ann@example.com", "bounced@example.com"],
            cc: "carol@example.com",
            bcc: ["audit@example.com", "dave@example.com"],
            subject: "Delivered",
            htmlContent: "<p>x</p>",
          },
        });
        expect(sent.status).toBe(200);
        // The refused message never reached the server: the first messages it received are this
        // one's, one transaction per recipient kept.
        const received = await smtp.waitForMessages(3);
        expect(received.map((each) => each.subject)).toEqual(["Delivered", "Delivered", "Delivered"]);
        expect(received.flatMap((each) => each.envelope.rcptTo).sort()).toEqual([
          "ann@example.com",
          "carol@example.com",
          "dave@example.com",
        ]);
        const message = received[0];
        expect(message!.to).toEqual([{ name: "", address: "ann@example.com" }]);
        expect(message!.raw).not.toContain("bounced@example.com");
        expect(message!.raw.toLowerCase()).not.toContain("audit@example.com");
        expect(
          (await call("GET", `/api/emails/${sent.body.emailId}`, { key })).body.suppressedRecipients,
        ).toEqual([
          { kind: "to", address: "bounced@example.com", reason: "manual" },
          { kind: "bcc", address: "audit@example.com", reason: "manual" },
        ]);
        // Nothing else arrives late.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(smtp.messages).toHaveLength(3);
      } finally {
        await target.close();
      }
    });
  });
}
