import { connect, type Socket } from "node:net";
import { createMailPulse, type MailPulse, type Storage } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { createTestClock } from "@mailpulse/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { InboundReceiver } from "../../src/background/inbound-smtp.js";
import { createRecipientToken } from "../../src/services/feedback/recipient-token.js";
import { sendOnce } from "./smtp-client.js";

const quiet = { info: () => {}, error: () => {} };
const abuse = "abuse@send.mailpulse.test";

/** A raw SMTP client: what it read so far, and when the server hung up. */
function rawClient(port: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (chunk) => {
    received += chunk.toString("latin1");
  });
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
  const waitFor = async (pattern: RegExp, timeoutMs = 5000) => {
    const start = Date.now();
    while (!pattern.test(received)) {
      if (Date.now() - start > timeoutMs) throw new Error(`no ${pattern} in: ${received}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { socket, closed, waitFor, received: () => received };
}

describe("inbound SMTP receiver limits", () => {
  let storage: Storage;
  let mailpulse: MailPulse;
  let receiver: InboundReceiver;

  beforeEach(async () => {
    storage = sqliteStorage({ filename: ":memory:" });
    await storage.migrate();
    mailpulse = createMailPulse({
      storage,
      baseUrl: "http://mailpulse.test",
      platformDomain: "mailpulse.test",
      signingSecret: "a signing secret of at least thirty-two characters",
      logger: quiet,
      clock: createTestClock("2026-03-10T00:00:00.000Z"),
      inbound: { logRetentionDays: 7, maxLogRows: 2 },
    });
    receiver = await mailpulse.inbound.listen({
      port: 0,
      host: "127.0.0.1",
      messageTimeoutMs: 600,
      socketTimeoutMs: 1500,
      maxConnections: 2,
    });
  });

  afterEach(async () => {
    await mailpulse.stop();
    await storage.close();
  });

  it("cuts off a client that trickles its message past the time per message, and one that stays silent", async () => {
    const trickler = rawClient(receiver.port);
    await trickler.waitFor(/^220 /m);
    trickler.socket.write(`EHLO mta.remote.example\r\nMAIL FROM:<>\r\nRCPT TO:<${abuse}>\r\nDATA\r\n`);
    await trickler.waitFor(/^354 /m);
    const started = Date.now();
    // A byte every 100 ms: never idle, never done.
    const drip = setInterval(() => trickler.socket.writable && trickler.socket.write("x"), 100);
    try {
      const closedAt = await trickler.closed;
      expect(closedAt - started).toBeGreaterThanOrEqual(500);
      expect(closedAt - started).toBeLessThan(1400);
    } finally {
      clearInterval(drip);
    }

    const silent = rawClient(receiver.port);
    await silent.waitFor(/^220 /m);
    const silentSince = Date.now();
    const closedAt = await silent.closed;
    expect(closedAt - silentSince).toBeGreaterThanOrEqual(1000);
    expect(silent.received()).toMatch(/^421 /m);
  }, 10_000);

  it("answers 421 past the connection limit, and serves again once a connection is free", async () => {
    const first = rawClient(receiver.port);
    const second = rawClient(receiver.port);
    await Promise.all([first.waitFor(/^220 /m), second.waitFor(/^220 /m)]);
    const third = rawClient(receiver.port);
    await third.waitFor(/^421 /m);
    first.socket.end("QUIT\r\n");
    second.socket.end("QUIT\r\n");
    await Promise.all([first.closed, second.closed]);
    const reply = await sendOnce(receiver.port, { from: "", to: [abuse] }, "Subject: hi\r\n\r\nhello\r\n");
    expect(reply.code).toBe(250);
  });

  it("keeps the inbound log to its newest rows, through start()'s purge job", async () => {
    const organizationId = (await mailpulse.organizations.create({ name: "Acme" })).id;
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
    for (const subject of ["one", "two", "three"]) {
      const reply = await sendOnce(
        receiver.port,
        { from: "a@remote.example", to: [`bounces+${token}@send.mailpulse.test`] },
        `From: a@remote.example\r\nSubject: ${subject}\r\n\r\nhi\r\n`,
      );
      expect(reply.code).toBe(250);
    }
    const subjects = async () =>
      (await mailpulse.inbound.list(organizationId)).data.map((row) => row.subject);
    expect(await subjects()).toEqual(["three", "two", "one"]);
    // The first purge runs in the background once start() resolves (maxLogRows: 2).
    await mailpulse.start();
    const deadline = Date.now() + 5000;
    while ((await subjects()).length > 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await subjects()).toEqual(["three", "two"]);
  });
});
