import { describe, expect, it } from "vitest";
import { addressLines, bareAddress, typedAddress } from "../../src/returned-mail/addresses.js";
import { looksLikeNotice, readTextBounce, reportText } from "../../src/returned-mail/text-bounce.js";

const signals = { fromAddress: null, subject: null, returnPath: null, text: "" };

describe("looksLikeNotice", () => {
  it("needs two signals: one alone is what a person or a newsletter may also show", () => {
    expect(looksLikeNotice({ ...signals, subject: "Re: undeliverable parcel?" })).toBe(false);
    expect(looksLikeNotice({ ...signals, returnPath: "<>" })).toBe(false);
    expect(
      looksLikeNotice({ ...signals, fromAddress: "MAILER-DAEMON@mx.example", subject: "failure notice" }),
    ).toBe(true);
    expect(
      looksLikeNotice({ ...signals, returnPath: "<>", text: "Hi. This is the qmail-send program at x." }),
    ).toBe(true);
  });

  it("does not count notice wording that only appears in the quoted original", () => {
    const text = "Thanks!\n\n--- Below this line is a copy of the message.\n\nThis is a permanent error";
    expect(looksLikeNotice({ ...signals, returnPath: "<>", text })).toBe(false);
  });
});

describe("readTextBounce", () => {
  it("judges each recipient on its own paragraph and ignores addresses in the quoted original", () => {
    const text = [
      "<a@example.com>:",
      "Remote host said: 550 5.1.1 no such user",
      "",
      "<b@example.com>:",
      "Remote host said: 452 4.2.2 mailbox full",
      "",
      "--- Below this line is a copy of the message.",
      "",
      "<c@example.com>:",
    ].join("\n");
    expect(readTextBounce(text, null).map((r) => [r.recipient, r.bounceType, r.status, r.smtpCode])).toEqual([
      ["a@example.com", "hard", "5.1.1", 550],
      ["b@example.com", "soft", "4.2.2", 452],
    ]);
  });

  it("uses the return path's recipient when the notice names none", () => {
    const [outcome] = readTextBounce("Delivery failed: 550 mailbox unavailable", "verp@example.com");
    expect(outcome).toMatchObject({ recipient: "verp@example.com", bounceType: "hard", smtpCode: 550 });
  });

  it("cuts the report above the quoted original", () => {
    expect(reportText("report\nOriginal message headers:\nTo: x@example.com")).toBe("report\n");
  });
});

describe("addresses", () => {
  it("reads DSN address fields and mailboxes", () => {
    expect(typedAddress("rfc822; user@example.com")).toBe("user@example.com");
    expect(typedAddress("rfc822;<user@example.com>")).toBe("user@example.com");
    expect(typedAddress("utf-8; jürgen@example.de")).toBe("jürgen@example.de");
    expect(typedAddress("rfc822; [redacted]")).toBeNull();
    expect(bareAddress("Ann <ann@example.com>")).toBe("ann@example.com");
    expect(bareAddress("Undisclosed Recipients")).toBeNull();
  });

  it("finds recipient lines as qmail, Exim and Exchange write them, not sentences", () => {
    const lines = [
      "<a@example.com>:",
      "  b@example.com",
      "c@example.com on 3/10/2026",
      "Write to d@example.com",
    ];
    expect(addressLines(lines).map((line) => line.address)).toEqual([
      "a@example.com",
      "b@example.com",
      "c@example.com",
    ]);
  });
});
