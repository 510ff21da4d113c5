import { Writable } from "node:stream";
import { mailpulseFastify } from "@mailpulse/adapter-fastify";
import { createMailPulse, smtpProvider } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { type SmtpTestServer, startSmtpTestServer } from "@mailpulse/testing/peers";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Fastify's own pino logger, writing JSON lines to a stream the test reads; a real SMTP server on
// loopback refuses the message so that MailPulse has a failure to report.
describe("MailPulse logging through Fastify's app.log", () => {
  let smtp: SmtpTestServer;
  beforeAll(async () => {
    smtp = await startSmtpTestServer({ reject: () => "mailbox full" });
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("writes pino lines with their fields: the failed email's id and recipient, the error under err", async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString("utf8").split("\n")) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = Fastify({ logger: { level: "info", stream } });
    const storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "http://localhost:3000",
      allowPrivateBaseUrl: true,
      mailProvider: smtpProvider({ url: smtp.url }),
      logger: app.log,
    });
    await mailpulse.start();
    await app.register(mailpulseFastify, { mailpulse });
    try {
      const organization = await mailpulse.organizations.create({ name: "Acme" });
      const { key } = await mailpulse.apiKeys.create(organization.id);
      const response = await app.inject({
        method: "POST",
        url: "/api/send",
        headers: { "x-api-key": key, "content-type": "application/json" },
        payload: { from: "a@acme.example", to: "ada@example.com", subject: "Hi", htmlContent: "<p>Hi</p>" },
      });
      expect(response.statusCode).toBe(500);

      // start()'s setup notice: an info line (level 30) whose msg is the sentence.
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 30,
          msg: expect.stringMatching(/^MailPulse: the platform domain is "localhost"/),
        }),
      );
      const failure = lines.find((line) => line.level === 50);
      expect(failure).toMatchObject({
        msg: expect.stringMatching(/^MailPulse: delivery of email \S+ to ada@example.com failed: /),
        emailId: expect.any(String),
        to: ["ada@example.com"],
        err: { message: expect.stringContaining("mailbox full"), stack: expect.any(String) },
      });
      expect(failure!.msg).toContain(failure!.emailId as string);
    } finally {
      await app.close();
      await mailpulse.stop();
      await storage.close();
    }
  });
});
