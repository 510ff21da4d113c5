import { describe, expect, it } from "vitest";
import { normalizeDomainName } from "../../src/services/domains/domain-name.js";

describe("normalizeDomainName", () => {
  it("lower-cases, drops the trailing dot, trims and converts IDN to punycode", () => {
    expect(normalizeDomainName(" Acme.COM. ")).toEqual({ ok: true, domain: "acme.com" });
    expect(normalizeDomainName("Bücher.example")).toEqual({ ok: true, domain: "xn--bcher-kva.example" });
    expect(normalizeDomainName("a-b.c0.example")).toEqual({ ok: true, domain: "a-b.c0.example" });
  });

  it.each([
    ["", "must not be empty"],
    ["acme", "at least two labels"],
    ["localhost", "at least two labels"],
    ["app.localhost", "must not be localhost"],
    ["127.0.0.1", "not an IP address"],
    ["[::1]", "not an IP address"],
    ["-acme.com", 'invalid label "-acme"'],
    ["acme-.com", 'invalid label "acme-"'],
    ["ac_me.com", "ac_me"],
    ["acme..com", 'invalid label ""'],
    [`${"a".repeat(64)}.com`, "invalid label"],
    [`${"a.".repeat(126)}com`, "at most 253"],
    ["acme com.example", "acme com"],
  ])("refuses %j", (input, problem) => {
    const outcome = normalizeDomainName(input);
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? "" : outcome.problem).toContain(problem);
  });

  // Issue 31: `0x7f.1` was stored as 127.0.0.1 and `123.123` as 123.0.0.123.
  it.each([
    "127.0.0.1",
    "127.0.0.1.",
    "0x7f.1",
    "0X7F.0.0.1",
    "0x7f000001",
    "123.123",
    "123.123.",
    "10.1",
    "127.1",
    "0177.0.0.1",
    "0177.1",
    "017700000001",
    "2130706433",
    "0x",
    "1.2.3.0x",
    "a.09",
    "a.123",
    "example.0x10",
    "１２７.０.０.１",
    "%31%32%37.0.0.1",
    "0x7f%2e1",
    "%30x7f.1",
    "[::1]",
    "[::1].",
    "[::ffff:127.0.0.1]",
    "[0:0:0:0:0:0:0:1]",
    "::1",
    "::ffff:7f00:1",
    "[fe80::1%25eth0]",
    "[127.0.0.1]",
    " 0x7f.1 ",
  ])("refuses %j as an IP address", (input) => {
    expect(normalizeDomainName(input)).toEqual({
      ok: false,
      problem: "must be a domain name, not an IP address",
    });
  });

  it("refuses percent-encoding that decodes to a name", () => {
    expect(normalizeDomainName("ex%61mple.com")).toEqual({
      ok: false,
      problem: "must not be percent-encoded",
    });
  });

  it.each(["1.example", "123.example.com", "0x7f.example", "a.b1", "a.x0", "mail.1a", "xn--80ak6aa92e.com"])(
    "still accepts %j, whose last label is not a number",
    (input) => {
      expect(normalizeDomainName(input).ok).toBe(true);
    },
  );

  it("accepts a 63-character label and a 253-character name", () => {
    expect(normalizeDomainName(`${"a".repeat(63)}.com`).ok).toBe(true);
    const name = `${"a".repeat(61)}.${"b".repeat(61)}.${"c".repeat(61)}.${"d".repeat(63)}.efg`;
    expect(name.length).toBe(253);
    expect(normalizeDomainName(name).ok).toBe(true);
  });
});
