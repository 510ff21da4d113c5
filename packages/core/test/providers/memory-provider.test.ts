import { describe, expect, it } from "vitest";
import { type OutgoingMessage, RecipientsRejectedError } from "../../src/ports/mail-provider.js";
import { memoryProvider } from "../../src/providers/memory-provider.js";

function message(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    from: { address: "news@sender.test", name: "Acme" },
    to: [{ address: "alice@example.test" }],
    cc: [{ address: "carol@example.test" }],
    bcc: [],
    subject: "Hello",
    html: "<p>Hi</p>",
    text: "Hi",
    headers: { "X-MailPulse-Tracking-Id": "trk_1" },
    ...overrides,
  };
}

describe("memoryProvider", () => {
  it("captures each accepted message with its id and acceptance time", async () => {
    const acceptedAt = new Date("2026-01-02T03:04:05.000Z");
    const provider = memoryProvider({ clock: { now: () => acceptedAt } });

    const first = await provider.send(message());
    const second = await provider.send(message({ subject: "Second" }));

    expect(first.id).toMatch(/^[0-9a-f]{32}@memory\.mailpulse$/);
    expect(second.id).not.toBe(first.id);
    expect(provider.messages).toHaveLength(2);
    expect(provider.messages[0]).toEqual({ ...message(), id: first.id, acceptedAt });
    expect(provider.messages[1]?.subject).toBe("Second");
  });

  it("keeps a copy, so changing the sent object afterwards does not rewrite history", async () => {
    const provider = memoryProvider();
    const sent = message();

    await provider.send(sent);
    sent.subject = "Changed";
    sent.to.push({ address: "mallory@example.test" });
    sent.headers["X-Extra"] = "1";

    expect(provider.messages[0]?.subject).toBe("Hello");
    expect(provider.messages[0]?.to).toEqual([{ address: "alice@example.test" }]);
    expect(provider.messages[0]?.headers).toEqual({ "X-MailPulse-Tracking-Id": "trk_1" });
  });

  it("records the envelopes the message was handed over in, as given", async () => {
    const provider = memoryProvider();
    const envelopes = [
      { from: "bounces+one@send.sender.test", to: ["alice@example.test"] },
      { from: "bounces+two@send.sender.test", to: ["carol@example.test"] },
    ];

    await provider.send(message({ envelopes }));
    await provider.send(message());

    expect(provider.messages[0]?.envelopes).toEqual(envelopes);
    expect(provider.messages[1]?.envelopes).toBeUndefined();
  });

  it("refuses chosen recipients as a receiving server would, and rejects when it refuses them all", async () => {
    const gone = { smtpCode: 550, status: "5.1.1", diagnostic: "550 5.1.1 User unknown", permanent: true };
    const provider = memoryProvider({
      rejectRecipient: (address) => (address.startsWith("gone") ? gone : undefined),
    });

    const partly = await provider.send(message({ cc: [{ address: "gone@example.test" }] }));
    expect(partly.rejected).toEqual([{ address: "gone@example.test", ...gone }]);
    expect(provider.messages).toHaveLength(1);

    const refused = provider.send(
      message({ envelopes: [{ from: "bounces+x@send.sender.test", to: ["gone2@example.test"] }] }),
    );
    await expect(refused).rejects.toBeInstanceOf(RecipientsRejectedError);
    await expect(refused).rejects.toMatchObject({ rejected: [{ address: "gone2@example.test", ...gone }] });
    expect(provider.messages).toHaveLength(1);
  });

  it("logs one line per message naming the id, sender, visible recipients, the bcc count and the subject", async () => {
    const lines: string[] = [];
    const provider = memoryProvider({ log: (line) => lines.push(line) });

    const { id } = await provider.send(
      message({ bcc: [{ address: "hidden@example.test" }], subject: 'Say "hi"' }),
    );

    expect(lines).toEqual([
      `memory provider: accepted ${id} from news@sender.test to alice@example.test, carol@example.test, 1 bcc "Say \\"hi\\""`,
    ]);
    expect(lines.join("\n")).not.toContain("hidden@example.test");
  });

  it("names the one-click unsubscribe URL in the line when the message carries one (nothing reaches a mailbox to read it in)", async () => {
    const lines: string[] = [];
    const provider = memoryProvider({ log: (line) => lines.push(line) });
    const url = "https://mail.example.test/api/u/abc";

    const { id } = await provider.send(
      message({
        headers: {
          "List-Unsubscribe": `<${url}>, <mailto:unsubscribe+abc@send.example.test>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      }),
    );

    expect(lines).toEqual([
      `memory provider: accepted ${id} from news@sender.test to alice@example.test, carol@example.test "Hello" (List-Unsubscribe ${url})`,
    ]);
  });

  it("does not log when no log function is given", async () => {
    const provider = memoryProvider();
    await expect(provider.send(message())).resolves.toHaveProperty("id");
  });

  it("simulates a rejection: send rejects with the given error and nothing is captured", async () => {
    const lines: string[] = [];
    const provider = memoryProvider({
      log: (line) => lines.push(line),
      fail: (outgoing) =>
        outgoing.to.some((to) => to.address === "bounce@example.test")
          ? new Error("550 5.1.1 Mailbox does not exist")
          : undefined,
    });

    await expect(provider.send(message({ to: [{ address: "bounce@example.test" }] }))).rejects.toThrow(
      "550 5.1.1 Mailbox does not exist",
    );
    await provider.send(message());

    expect(provider.messages.map((captured) => captured.to[0]?.address)).toEqual(["alice@example.test"]);
    expect(lines[0]).toBe(
      'memory provider: rejected from news@sender.test to bounce@example.test, carol@example.test "Hello": 550 5.1.1 Mailbox does not exist',
    );
    expect(lines[1]).toMatch(/^memory provider: accepted /);
  });

  it("clear() forgets captured messages, and later sends are captured again", async () => {
    const provider = memoryProvider();
    await provider.send(message());
    await provider.send(message());

    provider.clear();
    expect(provider.messages).toHaveLength(0);

    await provider.send(message({ subject: "After clear" }));
    expect(provider.messages.map((captured) => captured.subject)).toEqual(["After clear"]);
  });
});

describe("memoryProvider keep", () => {
  it("keeps only the newest messages past its bound, and none with keep: 0", async () => {
    const bounded = memoryProvider({ keep: 2 });
    const none = memoryProvider({ keep: 0 });
    for (const subject of ["1", "2", "3"]) {
      await bounded.send(message({ subject }));
      expect((await none.send(message({ subject }))).id).toMatch(/@memory\.mailpulse$/);
    }
    expect(bounded.messages.map((m) => m.subject)).toEqual(["2", "3"]);
    expect(none.messages).toEqual([]);
  });
});
