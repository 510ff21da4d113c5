import { generateKeyPairSync } from "node:crypto";
import {
  type SmtpTestServer,
  type SmtpTestServerOptions,
  startSmtpTestServer,
} from "@mailpulse/testing/peers";
import { afterEach, describe, expect, it } from "vitest";
import {
  type MailProvider,
  type OutgoingMessage,
  RecipientsRejectedError,
} from "../../src/ports/mail-provider.js";
import { smtpProvider } from "../../src/providers/smtp-provider.js";

function message(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    from: { address: "news@sender.test", name: "Zoë from Acme, Inc." },
    to: [{ address: "alice@example.test", name: "Alice Ängström" }],
    cc: [{ address: "carol@example.test" }],
    bcc: [{ address: "hidden@example.test", name: "Hidden Person" }],
    replyTo: { address: "support@sender.test", name: "Acme Support" },
    subject: "Grüße aus Köln – 50 % Rabatt 🎉",
    html: '<p>Hallo <a href="https://t.test/c/abc">Welt</a> – schön</p>',
    text: "Hallo Welt – schön (plain text part)",
    headers: { "X-MailPulse-Tracking-Id": "trk_123", "List-Unsubscribe": "<https://u.test/x>" },
    ...overrides,
  };
}

describe("smtpProvider over a real SMTP server", () => {
  let server: SmtpTestServer | undefined;
  let provider: MailProvider | undefined;

  async function setUp(
    options?: SmtpTestServerOptions,
  ): Promise<{ server: SmtpTestServer; provider: MailProvider }> {
    server = await startSmtpTestServer(options);
    provider = smtpProvider({ url: server.url });
    return { server, provider };
  }

  afterEach(async () => {
    await provider?.close?.();
    await server?.close();
    provider = undefined;
    server = undefined;
  });

  it("delivers every field, with display names and non-ASCII text encoded, and Bcc only in the envelope", async () => {
    const { server, provider } = await setUp();

    const result = await provider.send(message());
    const [received] = await server.waitForMessages(1);

    expect(received).toBeDefined();
    if (!received) return;
    expect(received.from).toEqual({ name: "Zoë from Acme, Inc.", address: "news@sender.test" });
    expect(received.to).toEqual([{ name: "Alice Ängström", address: "alice@example.test" }]);
    expect(received.cc).toEqual([{ name: "", address: "carol@example.test" }]);
    expect(received.replyTo).toEqual({ name: "Acme Support", address: "support@sender.test" });
    expect(received.subject).toBe("Grüße aus Köln – 50 % Rabatt 🎉");
    expect(received.html).toBe('<p>Hallo <a href="https://t.test/c/abc">Welt</a> – schön</p>');
    expect(received.text?.trim()).toBe("Hallo Welt – schön (plain text part)");
    expect(received.headers.get("x-mailpulse-tracking-id")).toBe("trk_123");
    expect(received.raw).toMatch(/^List-Unsubscribe: <https:\/\/u\.test\/x>\r$/m);
    expect(received.raw).toMatch(/^Content-Type: multipart\/alternative;/m);

    expect(received.envelope.mailFrom).toBe("news@sender.test");
    expect(received.envelope.rcptTo).toEqual([
      "alice@example.test",
      "carol@example.test",
      "hidden@example.test",
    ]);
    expect(received.headers.has("bcc")).toBe(false);
    expect(received.raw).not.toContain("hidden@example.test");

    expect(result.id).not.toMatch(/[<>]/);
    expect(result.id).toBe(received.messageId);
  });

  it("encodes display names so a comma or quote cannot split or inject an address", async () => {
    const { server, provider } = await setUp();

    await provider.send(
      message({
        from: { address: "news@sender.test", name: 'Bob "The Builder", <evil@attacker.test>' },
        to: [{ address: "alice@example.test" }],
        cc: [],
        bcc: [],
        replyTo: undefined,
      }),
    );
    const [received] = await server.waitForMessages(1);

    expect(received?.from).toEqual({
      name: 'Bob "The Builder", <evil@attacker.test>',
      address: "news@sender.test",
    });
    expect(received?.to).toEqual([{ name: "", address: "alice@example.test" }]);
    expect(received?.replyTo).toBeUndefined();
    expect(received?.envelope.rcptTo).toEqual(["alice@example.test"]);
  });

  it("sends several messages over the pool and returns each its own id", async () => {
    const { server, provider } = await setUp();

    const results = await Promise.all(
      [1, 2, 3].map((n) => provider.send(message({ subject: `Message ${n}`, bcc: [] }))),
    );
    const received = await server.waitForMessages(3);

    expect(new Set(results.map((r) => r.id)).size).toBe(3);
    expect(received.map((m) => m.messageId).sort()).toEqual(results.map((r) => r.id).sort());
    expect(received.map((m) => m.subject).sort()).toEqual(["Message 1", "Message 2", "Message 3"]);
  });

  it("rejects with the server's reply when the server refuses the message", async () => {
    const { server, provider } = await setUp({
      reject: (envelope) =>
        envelope.rcptTo.includes("blocked@example.test") ? "5.7.1 Recipient blocked by policy" : undefined,
    });

    const sending = provider.send(message({ to: [{ address: "blocked@example.test" }], cc: [], bcc: [] }));

    await expect(sending).rejects.toThrow(/550 5\.7\.1 Recipient blocked by policy/);
    expect(server.messages).toHaveLength(0);

    // The pool stays usable after a rejection.
    await provider.send(message({ bcc: [] }));
    await server.waitForMessages(1);
  });

  it("DKIM-signs the message with the sending domain's key and selector", async () => {
    const { server, provider } = await setUp();
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });

    await provider.send(
      message({ dkim: { domainName: "sender.test", keySelector: "mailpulse2024", privateKey } }),
    );
    const [received] = await server.waitForMessages(1);

    const signature = received?.raw
      .match(/^DKIM-Signature: ([\s\S]*?)\r\n(?![ \t])/m)?.[1]
      ?.replace(/\r\n[ \t]+/g, " ");
    expect(signature).toBeDefined();
    expect(signature).toMatch(/(^|;\s*)d=sender\.test;/);
    expect(signature).toMatch(/(^|;\s*)s=mailpulse2024;/);
    expect(signature).toMatch(/(^|;\s*)b=[A-Za-z0-9+/= ]{100,}/);
  });

  it("does not sign when the message carries no DKIM key", async () => {
    const { server, provider } = await setUp();

    await provider.send(message());
    const [received] = await server.waitForMessages(1);

    expect(received?.headers.has("dkim-signature")).toBe(false);
  });

  it("accepts host/port options with a tls passthrough instead of a url", async () => {
    server = await startSmtpTestServer();
    provider = smtpProvider({ host: "127.0.0.1", port: server.port, tls: { rejectUnauthorized: false } });

    const result = await provider.send(message());
    const [received] = await server.waitForMessages(1);

    expect(received?.messageId).toBe(result.id);
  });

  it("sends one signed message in one transaction per envelope, each with its own MAIL FROM", async () => {
    const { server, provider } = await setUp();
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });

    const result = await provider.send(
      message({
        dkim: { domainName: "sender.test", keySelector: "s1", privateKey },
        envelopes: [
          { from: "bounces+one@send.sender.test", to: ["alice@example.test"] },
          { from: "bounces+two@send.sender.test", to: ["carol@example.test"] },
          { from: "bounces+three@send.sender.test", to: ["hidden@example.test"] },
        ],
      }),
    );
    const received = await server.waitForMessages(3);

    expect(result).toEqual({ id: received[0]!.messageId });
    expect(received.map((each) => [each.envelope.mailFrom, each.envelope.rcptTo]).sort()).toEqual([
      ["bounces+one@send.sender.test", ["alice@example.test"]],
      ["bounces+three@send.sender.test", ["hidden@example.test"]],
      ["bounces+two@send.sender.test", ["carol@example.test"]],
    ]);
    // Built and signed once: the same bytes (one DKIM signature) in every transaction, no Bcc.
    expect(new Set(received.map((each) => each.raw)).size).toBe(1);
    expect(received[0]!.raw.match(/^DKIM-Signature:/gm)).toHaveLength(1);
    expect(received[0]!.raw).not.toContain("hidden@example.test");
  });

  it("lists recipients refused at RCPT TO (5xx permanent, 4xx not) while others are accepted", async () => {
    const { server, provider } = await setUp({
      rejectRecipient: (address) =>
        address === "gone@example.test"
          ? { code: 550, message: "5.1.1 <gone@example.test>: Recipient address rejected" }
          : address === "busy@example.test"
            ? { code: 452, message: "Too many messages, slow down" }
            : undefined,
    });

    const result = await provider.send(
      message({
        to: [{ address: "alice@example.test" }, { address: "gone@example.test" }],
        cc: [{ address: "busy@example.test" }],
        bcc: [],
        envelopes: [
          { from: "b1@send.sender.test", to: ["alice@example.test"] },
          { from: "b2@send.sender.test", to: ["gone@example.test"] },
          { from: "b3@send.sender.test", to: ["busy@example.test"] },
        ],
      }),
    );

    expect(result.rejected).toEqual([
      {
        address: "gone@example.test",
        smtpCode: 550,
        status: "5.1.1",
        diagnostic: "550 5.1.1 <gone@example.test>: Recipient address rejected",
        permanent: true,
      },
      {
        address: "busy@example.test",
        smtpCode: 452,
        status: null,
        diagnostic: "452 Too many messages, slow down",
        permanent: false,
      },
    ]);
    expect((await server.waitForMessages(1)).map((each) => each.envelope.rcptTo)).toEqual([
      ["alice@example.test"],
    ]);
  });

  it("rejects with RecipientsRejectedError, naming each refusal, when every recipient is refused", async () => {
    const { provider } = await setUp({
      rejectRecipient: () => ({ code: 550, message: "5.1.1 User unknown" }),
    });

    const sending = provider.send(
      message({
        cc: [],
        bcc: [],
        envelopes: [{ from: "b1@send.sender.test", to: ["alice@example.test"] }],
      }),
    );

    await expect(sending).rejects.toBeInstanceOf(RecipientsRejectedError);
    await expect(sending).rejects.toMatchObject({
      message: expect.stringContaining("alice@example.test: 550 5.1.1 User unknown"),
      rejected: [
        {
          address: "alice@example.test",
          smtpCode: 550,
          status: "5.1.1",
          diagnostic: "550 5.1.1 User unknown",
          permanent: true,
        },
      ],
    });
  });
});
