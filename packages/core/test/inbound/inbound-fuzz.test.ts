import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { createMailPulse, type MailPulse, type Storage } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboundReceiver } from "../../src/background/inbound-smtp.js";
import { createRecipientToken } from "../../src/services/feedback/recipient-token.js";
import { returnedFixture } from "./returned-fixtures.js";
import { connectSmtp, sendOnce } from "./smtp-client.js";

const quiet = { info: () => {}, error: () => {} };
const mebibyte = 1024 * 1024;

/** A message body of `bytes` bytes, made as it is read: the client never holds it whole. */
function streamedMessage(bytes: number): Readable {
  const line = `${"y".repeat(998)}\r\n`;
  let left = bytes;
  let headerSent = false;
  return new Readable({
    read() {
      if (!headerSent) {
        headerSent = true;
        this.push("From: flood@remote.example\r\nSubject: flood\r\n\r\n");
        return;
      }
      if (left <= 0) return void this.push(null);
      const count = Math.min(256, Math.ceil(left / line.length));
      left -= count * line.length;
      this.push(line.repeat(count));
    },
  });
}

/** Multipart nested `depth` levels deep, with a delivery-status part at the bottom. */
function deeplyNested(depth: number): string {
  let body =
    "Content-Type: message/delivery-status\r\n\r\nFinal-Recipient: rfc822; ann@example.com\r\nAction: failed\r\nStatus: 5.1.1\r\n";
  for (let level = depth; level > 0; level--) {
    body = `Content-Type: multipart/mixed; boundary="b${level}"\r\n\r\n--b${level}\r\n${body}\r\n--b${level}--\r\n`;
  }
  return `From: MAILER-DAEMON@remote.example\r\nSubject: nested\r\nMIME-Version: 1.0\r\n${body}`;
}

describe("inbound SMTP receiver under hostile input", () => {
  let storage: Storage;
  let mailpulse: MailPulse;
  let receiver: InboundReceiver;
  let organizationId: string;
  let returnPath: string;

  beforeAll(async () => {
    storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
    mailpulse = createMailPulse({
      storage,
      baseUrl: "http://mailpulse.test",
      platformDomain: "mailpulse.test",
      signingSecret: "a signing secret of at least thirty-two characters",
      logger: quiet,
    });
    organizationId = (await mailpulse.organizations.create({ name: "Acme" })).id;
    const sent = await mailpulse.emails.send(organizationId, {
      from: "news@shop.example",
      to: "ann@example.com",
      subject: "Hi",
      htmlContent: "<p>Hi</p>",
    });
    const token = createRecipientToken(
      { trackingId: sent.emailTrackingId, recipientIndex: 0 },
      "return-path",
      await mailpulse.signingKey.key(),
    );
    returnPath = `bounces+${token}@send.mailpulse.test`;
    receiver = await mailpulse.inbound.listen({ port: 0, host: "127.0.0.1" });
  });

  afterAll(async () => {
    await mailpulse.stop();
    await storage.close();
  });

  it("answers every malformed message without crashing, in bounded memory, while serving other connections", async () => {
    const envelope = () => ({ from: "", to: [returnPath] });
    const dsn = returnedFixture("postfix-user-unknown.eml", {});
    const hostile: Array<[string, string | Buffer]> = [
      ["truncated parts", dsn.slice(0, Math.floor(dsn.length / 2))],
      [
        "truncated mid-header",
        "From: a@b.example\r\nSubject: cut\r\nContent-Type: multipart/report; boundary=",
      ],
      [
        "huge header",
        `From: a@b.example\r\n${`X-Filler: ${"h".repeat(900)}\r\n`.repeat(3000)}Subject: big\r\n\r\nbody\r\n`,
      ],
      ["one endless header line", `Subject: ${"s".repeat(2 * mebibyte)}\r\n\r\nbody\r\n`],
      ["deep multipart nesting", deeplyNested(2000)],
      ["8-bit garbage", randomBytes(2 * mebibyte)],
      [
        "8-bit garbage after a header",
        Buffer.concat([Buffer.from("From: a@b.example\r\n\r\n"), randomBytes(mebibyte)]),
      ],
      ["no header at all", "just some text\r\nand more\r\n"],
      ["an empty message", "\r\n"],
    ];

    // Buffers, where received chunks live (measured: ~35 MiB here when the receiver keeps 4 MiB
    // of each message, over 90 MiB when it keeps the 30 MB one whole).
    const used = () => process.memoryUsage().arrayBuffers;
    let peakBuffers = 0;
    const baseline = used();
    const sampler = setInterval(() => {
      peakBuffers = Math.max(peakBuffers, used() - baseline);
    }, 10);
    try {
      // A 30 MB message on one connection; the others go on meanwhile, on their own connections.
      const flooding = connectSmtp(receiver.port).then(async (client) => {
        try {
          return await client.send(envelope(), streamedMessage(30 * mebibyte));
        } finally {
          client.close();
        }
      });
      const replies: Array<[string, number]> = [];
      for (const [name, raw] of hostile) {
        replies.push([name, (await sendOnce(receiver.port, envelope(), raw)).code]);
      }
      for (const [name, code] of replies) {
        expect([250, 550, 552, 554], name).toContain(code);
      }
      expect((await flooding).code).toBe(552);
    } finally {
      clearInterval(sampler);
    }
    // The receiver keeps at most 4 MiB of each message; 30 MB never sits in memory.
    expect(peakBuffers).toBeLessThan(64 * mebibyte);

    // Still serving, and every message it took in is in the log.
    const after = await sendOnce(
      receiver.port,
      envelope(),
      dsn.replace("nobody@remote.example", "ann@example.com"),
    );
    expect(after.code).toBe(250);
    const log = (await mailpulse.inbound.list(organizationId, { limit: 100 })).data;
    expect(log[0]!.kind).toBe("bounce");
    expect(log.some((row) => row.kind === "malformed")).toBe(true);
  }, 30_000);
});
