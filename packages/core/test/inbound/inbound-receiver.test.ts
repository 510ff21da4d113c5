import { createMailPulse, type MailPulse, type Storage, smtpProvider } from "@mailpulse/core";
import { type SmtpTestServer, startSmtpTestServer } from "@mailpulse/testing/peers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { InboundReceiver } from "../../src/background/inbound-smtp.js";
import { createRecipientToken } from "../../src/services/feedback/recipient-token.js";
import { storageFactories } from "../support/storages.js";
import { returnedFixture } from "./returned-fixtures.js";
import { connectSmtp, sendOnce } from "./smtp-client.js";

const quiet = { info: () => {}, error: () => {} };
const platformDomain = "mailpulse.test";
const returnPathDomain = `send.${platformDomain}`;
/** The fixtures' placeholders for the original's tracking id and Message-ID. */
const fixtureTrackingId = "Q2FtcGFpZ25FbWFpbDAwMQ";

for (const factory of storageFactories) {
  describe(`inbound SMTP receiver (${factory.name})`, () => {
    let storage: Storage;
    let smtp: SmtpTestServer;
    let mailpulse: MailPulse;
    let receiver: InboundReceiver;
    let organizationId: string;
    /** The email sent to ann (index 0) and bob (index 1). */
    let sent: { emailId: string; trackingId: string; messageId: string };

    beforeEach(async () => {
      storage = await factory.create();
      smtp = await startSmtpTestServer();
      mailpulse = createMailPulse({
        storage,
        baseUrl: "http://mailpulse.test",
        platformDomain,
        mailProvider: smtpProvider({ url: smtp.url }),
        signingSecret: "a signing secret of at least thirty-two characters",
        logger: quiet,
      });
      organizationId = (await mailpulse.organizations.create({ name: "Acme" })).id;
      const result = await mailpulse.emails.send(organizationId, {
        from: "news@shop.example",
        to: ["ann@example.com", "bob@example.com"],
        subject: "Spring sale",
        htmlContent: "<p>Hello</p>",
      });
      const [tracked] = await storage.tracking.findEmails([result.emailTrackingId]);
      sent = { emailId: tracked!.id, trackingId: result.emailTrackingId, messageId: result.id };
      receiver = await mailpulse.inbound.listen({ port: 0, host: "127.0.0.1", size: 1024 * 1024 });
    });

    afterEach(async () => {
      await mailpulse.stop();
      await smtp.close();
      await storage.close();
    });

    const token = async (recipientIndex: number, purpose: "return-path" | "unsubscribe") =>
      createRecipientToken(
        { trackingId: sent.trackingId, recipientIndex },
        purpose,
        await mailpulse.signingKey.key(),
      );
    const verp = async (recipientIndex: number) =>
      `bounces+${await token(recipientIndex, "return-path")}@${returnPathDomain}`;
    const suppressed = async () =>
      (await mailpulse.suppressions.list(organizationId)).data.map(({ address, reason, status }) => ({
        address,
        reason,
        status,
      }));
    const logged = async () => (await mailpulse.inbound.list(organizationId)).data;

    it("suppresses the recipient a hard bounce to its return path names, and logs the bounce", async () => {
      const dsn = returnedFixture("postfix-user-unknown.eml", {
        "nobody@remote.example": "bob@example.com",
        [fixtureTrackingId]: sent.trackingId,
      });
      const reply = await sendOnce(receiver.port, { from: "", to: [await verp(1)] }, dsn);
      expect(reply.code).toBe(250);
      expect(await suppressed()).toEqual([
        { address: "bob@example.com", reason: "hard_bounce", status: "5.1.1" },
      ]);
      const [row] = await logged();
      expect(row).toMatchObject({
        kind: "bounce",
        emailId: sent.emailId,
        envelopeFrom: "",
        subject: "Undelivered Mail Returned to Sender",
        messageId: "<20260310091409.A1B2C3@mx.example>",
      });
      expect(row!.summary).toContain("Hard bounce of bob@example.com (5.1.1) recorded.");
      // The same DSN again (an MTA retrying): nothing changes, and it is answered 250 again.
      expect((await sendOnce(receiver.port, { from: "", to: [await verp(1)] }, dsn)).code).toBe(250);
      expect(await suppressed()).toHaveLength(1);
    });

    it("trusts the return path over the recipient a DSN names", async () => {
      // The DSN names the address a forwarder expanded to; the return path says it was ann's mail.
      const dsn = returnedFixture("postfix-user-unknown.eml", { [fixtureTrackingId]: sent.trackingId });
      expect((await sendOnce(receiver.port, { from: "", to: [await verp(0)] }, dsn)).code).toBe(250);
      expect(await suppressed()).toEqual([
        { address: "ann@example.com", reason: "hard_bounce", status: "5.1.1" },
      ]);
    });

    it("attributes a DSN without a return path by its tracking header, recording only the email's recipients", async () => {
      const dsn = returnedFixture("postfix-multi-recipient-mixed.eml", {
        "ann@remote.example": "ann@example.com",
        "bob@remote.example": "bob@example.com",
        ZW1haWwtNC1fLWEtYi1j: sent.trackingId,
      });
      const reply = await sendOnce(receiver.port, { from: "", to: [`postmaster@${returnPathDomain}`] }, dsn);
      expect(reply.code).toBe(250);
      // cy@ and dee@ were never sent this email: nothing is recorded for them.
      expect(await suppressed()).toEqual([
        { address: "ann@example.com", reason: "hard_bounce", status: "5.1.1" },
      ]);
      const [row] = await logged();
      expect(row!.summary).toContain("Hard bounce of ann@example.com (5.1.1) recorded.");
      expect(row!.summary).toContain("Soft bounce of bob@example.com (5.2.2) recorded.");
      expect(row!.summary).not.toContain("cy@other.example");
    });

    it("suppresses nobody for a soft bounce or a delay, and logs both", async () => {
      const full = returnedFixture("postfix-mailbox-full-552.eml", {
        "full@remote.example": "ann@example.com",
      });
      const delayed = returnedFixture("postfix-delayed.eml", { "slow@remote.example": "ann@example.com" });
      expect((await sendOnce(receiver.port, { from: "", to: [await verp(0)] }, full)).code).toBe(250);
      expect((await sendOnce(receiver.port, { from: "", to: [await verp(0)] }, delayed)).code).toBe(250);
      expect(await suppressed()).toEqual([]);
      const rows = await logged();
      expect(rows.map((row) => row.kind)).toEqual(["bounce", "bounce"]);
      expect(rows[0]!.summary).toContain("Delay of ann@example.com (4.4.1) recorded.");
      expect(rows[1]!.summary).toContain("Soft bounce of ann@example.com (5.2.2) recorded.");
    });

    it("suppresses the complainant of an ARF report sent to abuse@, attributed by the tracking header", async () => {
      const arf = returnedFixture("arf-yahoo-cfl.eml", {
        "annoyed@yahoo.com": "ann@example.com",
        [fixtureTrackingId]: sent.trackingId,
      });
      const reply = await sendOnce(
        receiver.port,
        { from: "feedback@arf.mail.yahoo.com", to: [`abuse@${returnPathDomain}`] },
        arf,
      );
      expect(reply.code).toBe(250);
      expect(await suppressed()).toEqual([{ address: "ann@example.com", reason: "complaint", status: null }]);
      expect((await logged())[0]).toMatchObject({ kind: "complaint", emailId: sent.emailId });
    });

    it("attributes a complaint that quotes only the original's Message-ID", async () => {
      const arf = returnedFixture("arf-yahoo-cfl.eml", {
        "annoyed@yahoo.com": "bob@example.com",
        [`X-MailPulse-Tracking-Id: ${fixtureTrackingId}`]: "X-Mailer: Acme",
        "<cmp-1@acme.example>": `<${sent.messageId}>`,
      });
      expect(arf).not.toContain("X-MailPulse-Tracking-Id");
      const reply = await sendOnce(
        receiver.port,
        { from: "fbl@example.net", to: [`fbl@${returnPathDomain}`] },
        arf,
      );
      expect(reply.code).toBe(250);
      expect(await suppressed()).toEqual([{ address: "bob@example.com", reason: "complaint", status: null }]);
    });

    it("does not let a report at one organization's domain touch another organization's email", async () => {
      const other = await mailpulse.organizations.create({ name: "Other" });
      const created = await mailpulse.sendingDomains.create(other.id, { domain: "other.example" });
      await storage.sendingDomains.saveCheck(other.id, created.id, {
        status: "verified",
        records: "[]",
        verifiedAt: new Date(),
        lastCheckedAt: new Date(),
        failedChecks: 0,
      });
      const arf = returnedFixture("arf-yahoo-cfl.eml", {
        "annoyed@yahoo.com": "bob@example.com",
        [`X-MailPulse-Tracking-Id: ${fixtureTrackingId}`]: "X-Mailer: Acme",
        "<cmp-1@acme.example>": `<${sent.messageId}>`,
      });
      const reply = await sendOnce(
        receiver.port,
        { from: "fbl@example.net", to: ["abuse@send.other.example"] },
        arf,
      );
      expect(reply.code).toBe(250);
      expect(await suppressed()).toEqual([]);
      const [row] = (await mailpulse.inbound.list(other.id)).data;
      expect(row).toMatchObject({ kind: "complaint", emailId: null });
      expect(row!.summary).toContain("could not be tied to an email sent from here");
    });

    it("unsubscribes the recipient a mail to its mailto unsubscribe address names", async () => {
      const address = `unsubscribe+${await token(1, "unsubscribe")}@${returnPathDomain}`;
      const mail = [
        "From: Bob <bob@example.com>",
        `To: ${address}`,
        "Subject: unsubscribe",
        "Message-ID: <u-1@example.com>",
        "",
        "unsubscribe",
        "",
      ].join("\r\n");
      expect((await sendOnce(receiver.port, { from: "bob@example.com", to: [address] }, mail)).code).toBe(
        250,
      );
      expect(await suppressed()).toEqual([
        { address: "bob@example.com", reason: "unsubscribe", status: null },
      ]);
      expect((await logged())[0]).toMatchObject({
        kind: "unsubscribe",
        subject: "unsubscribe",
        envelopeTo: [address],
      });
      // A return-path token is not an unsubscribe token, nor the reverse.
      const wrong = `unsubscribe+${await token(0, "return-path")}@${returnPathDomain}`;
      const refused = await sendOnce(receiver.port, { from: "ann@example.com", to: [wrong] }, mail);
      expect(refused.code).toBe(550);
      expect(refused.response).toContain("5.1.1");
    });

    it("refuses to relay: another domain gets 550 5.7.1, a forged return path 550 5.1.1", async () => {
      const mail = "From: a@b.example\r\nSubject: hi\r\n\r\nhi\r\n";
      const foreign = await sendOnce(receiver.port, { from: "a@b.example", to: ["someone@gmail.com"] }, mail);
      expect(foreign.code).toBe(550);
      expect(foreign.response).toContain("5.7.1");
      const notVerified = await sendOnce(
        receiver.port,
        { from: "a@b.example", to: ["abuse@send.other.example"] },
        mail,
      );
      expect(notVerified.code).toBe(550);
      const forged = await sendOnce(
        receiver.port,
        { from: "", to: [`bounces+${"a".repeat(45)}@${returnPathDomain}`] },
        mail,
      );
      expect(forged.code).toBe(550);
      expect(forged.response).toContain("5.1.1");
      expect(await logged()).toEqual([]);
    });

    it("accepts mail for send.<domain> of a verified sending domain", async () => {
      const created = await mailpulse.sendingDomains.create(organizationId, { domain: "shop.example" });
      const saved = await storage.sendingDomains.saveCheck(organizationId, created.id, {
        status: "verified",
        records: "[]",
        verifiedAt: new Date(),
        lastCheckedAt: new Date(),
        failedChecks: 0,
      });
      expect(saved).toBe("saved");
      const reply = await sendOnce(
        receiver.port,
        { from: "ann@example.com", to: ["postmaster@send.shop.example"] },
        "From: Ann <ann@example.com>\r\nSubject: Re: Spring sale\r\n\r\nThanks!\r\n",
      );
      expect(reply.code).toBe(250);
      expect((await logged())[0]).toMatchObject({
        kind: "human-reply",
        envelopeTo: ["postmaster@send.shop.example"],
      });
    });

    it("refuses an oversized message with 552, and serves the connection's next message", async () => {
      const client = await connectSmtp(receiver.port);
      try {
        const huge = `From: a@b.example\r\nSubject: big\r\n\r\n${"x".repeat(76)}\r\n`.repeat(20_000);
        const tooBig = await client.send({ from: "a@b.example", to: [await verp(0)] }, huge);
        expect(tooBig.code).toBe(552);
        const next = await client.send(
          { from: "a@b.example", to: [await verp(0)] },
          "From: a@b.example\r\nSubject: small\r\n\r\nhello\r\n",
        );
        expect(next.code).toBe(250);
      } finally {
        client.close();
      }
      expect((await logged()).map((row) => row.subject)).toEqual(["small"]);
    });

    it("answers 451 when storage fails, and records the report once the sender retries", async () => {
      const arf = returnedFixture("arf-yahoo-cfl.eml", {
        "annoyed@yahoo.com": "ann@example.com",
        [fixtureTrackingId]: sent.trackingId,
      });
      const add = storage.inboundMessages.add;
      storage.inboundMessages.add = () => Promise.reject(new Error("disk full"));
      const envelope = { from: "feedback@arf.mail.yahoo.com", to: [`abuse@${returnPathDomain}`] };
      try {
        expect((await sendOnce(receiver.port, envelope, arf)).code).toBe(451);
      } finally {
        storage.inboundMessages.add = add;
      }
      expect(await logged()).toEqual([]);
      expect((await sendOnce(receiver.port, envelope, arf)).code).toBe(250);
      expect(await suppressed()).toHaveLength(1);
      expect(await logged()).toHaveLength(1);
    });

    it("says why it cannot listen on a port in use, and listens no more once stopped", async () => {
      await expect(mailpulse.inbound.listen({ port: receiver.port, host: "127.0.0.1" })).rejects.toThrow(
        `cannot listen on port ${receiver.port}`,
      );
      await mailpulse.stop();
      await expect(
        sendOnce(receiver.port, { from: "", to: [await verp(0)] }, "Subject: x\r\n\r\nx\r\n"),
      ).rejects.toThrow();
      await expect(mailpulse.inbound.listen({ port: 0, host: "127.0.0.1" })).rejects.toThrow("stopped");
    });

    it("pages the inbound log newest first, per organization", async () => {
      for (const subject of ["one", "two", "three"]) {
        const mail = `From: ann@example.com\r\nSubject: ${subject}\r\n\r\nhi\r\n`;
        expect(
          (await sendOnce(receiver.port, { from: "ann@example.com", to: [await verp(0)] }, mail)).code,
        ).toBe(250);
      }
      const first = await mailpulse.inbound.list(organizationId, { limit: 2 });
      expect(first.data.map((row) => row.subject)).toEqual(["three", "two"]);
      const second = await mailpulse.inbound.list(organizationId, {
        limit: 2,
        before: Number(first.nextCursor),
      });
      expect(second.data.map((row) => row.subject)).toEqual(["one"]);
      expect(second.nextCursor).toBeNull();
      const other = await mailpulse.organizations.create({ name: "Other" });
      expect((await mailpulse.inbound.list(other.id)).data).toEqual([]);
    });
  });
}
