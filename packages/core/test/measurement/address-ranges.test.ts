import { describe, expect, it } from "vitest";
import { addressRanges } from "../../src/measurement/address-ranges.js";

describe("addressRanges", () => {
  const ranges = addressRanges([
    "198.51.100.0/24",
    "203.0.112.0/20",
    "10.0.0.7/32",
    "2a01:111:f400::/48",
    "2001:db8::/29",
  ]);

  it.each([
    ["198.51.100.0", true],
    ["198.51.100.255", true],
    ["198.51.101.0", false],
    // A prefix that ends inside a byte: 203.0.112.0/20 holds 203.0.112.0 to 203.0.127.255.
    ["203.0.112.1", true],
    ["203.0.127.255", true],
    ["203.0.128.0", false],
    ["203.0.111.255", false],
    ["10.0.0.7", true],
    ["10.0.0.8", false],
    ["::ffff:198.51.100.9", true],
    ["2a01:111:f400:7e00::12", true],
    ["2a01:111:f401::1", false],
    // 2001:db8::/29 ends inside the fourth byte: 2001:db8:: to 2001:dbf:ffff:...
    ["2001:db8:7::1", true],
    ["2001:dbf:ffff::1", true],
    ["2001:dc0::1", false],
    ["2001:db7::1", false],
    ["2001:0db8:0000::1", true],
  ])("%s in the ranges: %s", (ip, expected) => {
    expect(ranges.has(ip)).toBe(expected);
  });

  it("is false for what is not an address, and for an address of the other family", () => {
    expect(ranges.has(null)).toBe(false);
    expect(ranges.has("")).toBe(false);
    expect(ranges.has("not an address")).toBe(false);
    expect(ranges.has("198.51.100")).toBe(false);
    expect(addressRanges(["2001:db8::/32"]).has("32.1.13.184")).toBe(false);
  });

  it("gives the same answer when one address is checked against several sets in a row", () => {
    const other = addressRanges(["192.0.2.0/24"]);
    expect(ranges.has("192.0.2.5")).toBe(false);
    expect(other.has("192.0.2.5")).toBe(true);
    expect(ranges.has("192.0.2.5")).toBe(false);
  });

  it("matches everything with a /0", () => {
    expect(addressRanges(["0.0.0.0/0"]).has("203.0.113.9")).toBe(true);
    expect(addressRanges(["::/0"]).has("2001:db8::1")).toBe(true);
  });
});
