import { describe, expect, it } from "vitest";
import { isBlockedAddress } from "../../src/webhooks/address-policy.js";

describe("isBlockedAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private network"],
    ["172.16.5.4", "private network"],
    ["192.168.1.1", "private network"],
    ["169.254.169.254", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["0.0.0.0", "unspecified"],
    ["240.0.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fc00::1", "unique local"],
    ["fd12:3456::1", "unique local"],
    ["ff02::1", "multicast"],
    ["fec0::1", "site-local"],
    ["2001:db8::1", "reserved"],
    ["2002:7f00:1::1", "special-purpose"],
  ])("refuses %s as %s", (address, range) => {
    expect(isBlockedAddress(address)).toBe(range);
  });

  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.1.2.3", "private network"],
    ["::127.0.0.1", "loopback"],
    ["::7f00:1", "loopback"],
    ["::a9fe:a9fe", "link-local"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::10.0.0.1", "private network"],
  ])("judges %s, which embeds an IPv4 address, by that address (%s)", (address, range) => {
    expect(isBlockedAddress(address)).toBe(range);
  });

  it.each(["2130706433", "0177.0.0.1", "0x7f.0.0.1"])(
    "reads the odd IPv4 spelling %s as loopback",
    (address) => {
      expect(isBlockedAddress(address)).toBe("loopback");
    },
  );

  it.each([
    "93.184.215.14",
    "8.8.8.8",
    "1.1.1.1",
    "2606:4700:4700::1111",
    "::ffff:93.184.215.14",
    "64:ff9b::808:808",
  ])("lets the public address %s through", (address) => {
    expect(isBlockedAddress(address)).toBeNull();
  });

  it("fails closed on a string that is not an address", () => {
    expect(isBlockedAddress("hooks.example.com")).toBe("not an IP address");
    expect(isBlockedAddress("")).toBe("not an IP address");
  });
});
