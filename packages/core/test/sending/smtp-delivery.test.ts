import { smtpProvider } from "@mailpulse/core";
import { createApiClient, createTenant, serverKinds } from "@mailpulse/testing/contracts";
import { type SmtpTestServer, startSmtpTestServer } from "@mailpulse/testing/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTargetStarter } from "../support/start-api-target.js";
import { storageFactories } from "../support/storages.js";

// A real SMTP server on loopback receives what MailPulse sends; mailparser reads it back.
for (const storage of storageFactories) {
  describe(`sending through real SMTP on ${storage.name}`, () => {
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

    it("delivers headers, both parts, tracked links and the pixel; opens and clicks then show up", async () => {
      const target = await apiTargetStarter(
        serverKinds[0]!,
        storage,
      )({
        mailProvider: smtpProvider({ url: smtp.url }),
        platformDomain: "mailpulse.test",
      });
      try {
        const call = createApiClient(target.baseUrl);
        const { key } = await createTenant(target.mailpulse);
        const html = `<html><body><h1>Spring</h1><p>See <a href="https://shop.example/new?ref=mail&amp;id=7">what's new</a>.</p></body></html>`;
        const sent = await call("POST", "/api/send", {
          key,
          json: {
            from: "Shop Team <team@shop.example>",
            to: ["ann@example.com", "Bob <bob@example.com>"],
            cc: "carol@example.com",
            bcc: "dave@example.com",
            subject: "Spring collection — 20% off",
            htmlContent: html,
            campaignId: "Spring",
          },
        });
        expect(sent.status).toBe(200);
        // One transaction per recipient (each with its own return path), one message in all of them.
        const received = await smtp.waitForMessages(4);
        expect(received.flatMap((each) => each.envelope.rcptTo).sort()).toEqual([
          "ann@example.com",
          "bob@example.com",
          "carol@example.com",
          "dave@example.com",
        ]);
        expect(new Set(received.map((each) => each.raw)).size).toBe(1);
        const message = received.find((each) => each.envelope.rcptTo[0] === "ann@example.com");
        expect(message!.from).toEqual({ name: "Shop Team", address: "team@send.mailpulse.test" });
        expect(message!.replyTo).toEqual({ name: "", address: "team@shop.example" });
        expect(message!.to).toEqual([
          { name: "", address: "ann@example.com" },
          { name: "Bob", address: "bob@example.com" },
        ]);
        expect(message!.cc).toEqual([{ name: "", address: "carol@example.com" }]);
        expect(message!.headers.get("bcc")).toBeUndefined();
        expect(message!.subject).toBe("Spring collection — 20% off");
        expect(message!.messageId).toBe(sent.body.id);
        const link = sent.body.links[0];
        expect(link.originalUrl).toBe("https://shop.example/new?ref=mail&id=7");
        expect(message!.html).toContain(`<a href="${link.trackingUrl}">what's new</a>`);
        expect(message!.html).toContain(`<img src="${sent.body.pixelUrl}" width="1" height="1"`);
        expect(message!.text).toContain(`what's new (${link.trackingUrl})`);

        await fetch(sent.body.pixelUrl);
        const click = await fetch(link.trackingUrl, { redirect: "manual" });
        expect(click.headers.get("location")).toBe(link.originalUrl);
        const { body: list } = await call("GET", "/api/campaigns", { key });
        const { body: detail } = await call("GET", `/api/campaigns/${list.campaigns[0].id}`, { key });
        expect(detail.stats).toEqual({
          totalEmails: 1,
          totalOpens: 1,
          totalClicks: 1,
          openRate: 100,
          clickRate: 100,
          // No bounce, complaint nor unsubscribe came back.
          hardBounces: 0,
          softBounces: 0,
          complaints: 0,
          unsubscribes: 0,
          hardBounceRate: 0,
          softBounceRate: 0,
          complaintRate: 0,
          unsubscribeRate: 0,
          // Node's fetch (user agent `node`) is a script, not a person: counted raw, not human.
          human: { totalOpens: 0, totalClicks: 0, openRate: 0, clickRate: 0, noInteraction: 1 },
        });
        expect(detail.links).toEqual([{ url: link.originalUrl, clicks: 1 }]);
      } finally {
        await target.close();
      }
    });

    it("answers 500 when the SMTP server rejects the message, and keeps the email as failed", async () => {
      const target = await apiTargetStarter(
        serverKinds[0]!,
        storage,
      )({ mailProvider: smtpProvider({ url: smtp.url }) });
      try {
        const call = createApiClient(target.baseUrl);
        const { key, organization } = await createTenant(target.mailpulse);
        const response = await call("POST", "/api/send", {
          key,
          json: { from: "a@shop.example", to: "blocked@example.com", subject: "S", htmlContent: "<p>x</p>" },
        });
        expect(response).toMatchObject({
          status: 500,
          body: { error: expect.stringContaining("Email delivery failed") },
        });
        const emails = await target.storage.emails.list(organization.id, 5);
        expect(emails).toHaveLength(1);
        expect(emails[0]).toMatchObject({
          status: "failed",
          failureReason: expect.stringContaining("mailbox unavailable"),
        });
      } finally {
        await target.close();
      }
    });
  });
}
