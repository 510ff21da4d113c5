import { createMailPulse } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { describe, expect, it } from "vitest";
import { clientAddressResolver } from "../../src/measurement/client-address.js";

describe("the client address behind proxies (tracking.trustProxy)", () => {
  const chain = "198.51.100.7, 203.0.113.10, 10.0.0.3";

  it("believes no header by default", () => {
    expect(clientAddressResolver()("10.0.0.2", chain)).toBe("10.0.0.2");
    expect(clientAddressResolver(false)("::ffff:10.0.0.2", chain)).toBe("::ffff:10.0.0.2");
  });

  it("takes the client-most address when every proxy is trusted", () => {
    expect(clientAddressResolver(true)("10.0.0.2", chain)).toBe("198.51.100.7");
    expect(clientAddressResolver(true)("10.0.0.2", null)).toBe("10.0.0.2");
  });

  it("counts hops from the socket: a client cannot push a forged address past them", () => {
    // One load balancer: it appended what it saw (10.0.0.3); anything left of that is the client's claim.
    expect(clientAddressResolver(1)("10.0.0.2", chain)).toBe("10.0.0.3");
    expect(clientAddressResolver(2)("10.0.0.2", chain)).toBe("203.0.113.10");
    expect(clientAddressResolver(9)("10.0.0.2", chain)).toBe("198.51.100.7");
  });

  it("walks trusted CIDRs from the socket to the first address outside them", () => {
    const resolve = clientAddressResolver(["10.0.0.0/8", "203.0.113.0/24"]);
    expect(resolve("10.0.0.2", chain)).toBe("198.51.100.7");
    expect(resolve("10.0.0.2", "198.51.100.7, 192.0.2.44, 10.0.0.3")).toBe("192.0.2.44");
    // A direct client (not a trusted proxy) cannot forge the header.
    expect(resolve("192.0.2.99", "17.1.2.3")).toBe("192.0.2.99");
  });

  it("reads ports and brackets, and stops at a garbled entry", () => {
    expect(clientAddressResolver(true)("10.0.0.2", "[2001:db8::1]:4711, 203.0.113.10:80")).toBe(
      "2001:db8::1",
    );
    expect(clientAddressResolver(true)("10.0.0.2", "17.1.2.3, not-an-ip, 203.0.113.10")).toBe("203.0.113.10");
  });

  it("refuses a bad setting when MailPulse is created, naming it", () => {
    const storage = sqliteStorage({ filename: ":memory:" });
    const create = (trustProxy: unknown) => () =>
      createMailPulse({
        storage,
        baseUrl: "http://mail.test",
        tracking: { trustProxy: trustProxy as never },
      });
    expect(create(["10.0.0.0/40"])).toThrow(
      'createMailPulse: `tracking.trustProxy`: "10.0.0.0/40" is not a CIDR range',
    );
    expect(create(-1)).toThrow("`tracking.trustProxy`");
    expect(create(1.5)).toThrow("`tracking.trustProxy`");
  });
});
