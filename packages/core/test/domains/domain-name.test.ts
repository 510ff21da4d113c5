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

  it("accepts a 63-character label and a 253-character name", () => {
    expect(normalizeDomainName(`${"a".repeat(63)}.com`).ok).toBe(true);
    const name = `${"a".repeat(61)}.${"b".repeat(61)}.${"c".repeat(61)}.${"d".repeat(63)}.efg`;
    expect(name.length).toBe(253);
    expect(normalizeDomainName(name).ok).toBe(true);
  });
});
