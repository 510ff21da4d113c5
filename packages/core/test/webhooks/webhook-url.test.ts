import { describe, expect, it } from "vitest";
import { isMailPulseError, type MailPulseError } from "../../src/errors.js";
import { isBlockedAddress } from "../../src/webhooks/address-policy.js";
import {
  assertPublicWebhookUrl,
  type LookupAddresses,
  parseWebhookUrl,
  systemLookupAddresses,
} from "../../src/webhooks/webhook-url.js";

function caught(run: () => unknown): MailPulseError {
  try {
    run();
  } catch (error) {
    if (isMailPulseError(error)) return error;
    throw error;
  }
  throw new Error("expected a MailPulseError");
}

async function refusal(raw: string, lookup?: LookupAddresses): Promise<MailPulseError> {
  const error = await assertPublicWebhookUrl(parseWebhookUrl(raw), {
    allowPrivateNetworks: false,
    lookup,
  }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (isMailPulseError(error)) return error;
  throw new Error(`expected ${raw} to be refused, got ${String(error)}`);
}

/** A resolver that answers from a table and fails like getaddrinfo for any other name. */
function fakeDns(table: Record<string, string[]>): LookupAddresses {
  return async (hostname) => {
    const addresses = table[hostname];
    if (addresses) return addresses;
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  };
}

describe("parseWebhookUrl", () => {
  it("accepts an absolute https URL and keeps its path and query", () => {
    const url = parseWebhookUrl("https://hooks.example.com:8443/mailpulse?source=prod");
    expect(url.href).toBe("https://hooks.example.com:8443/mailpulse?source=prod");
  });

  it.each([
    ["hooks.example.com/mailpulse", "url must be an absolute https:// URL"],
    ["/relative/path", "url must be an absolute https:// URL"],
    ["", "url must be an absolute https:// URL"],
    ["http://hooks.example.com/", "url must use https://, not http://"],
    ["ftp://hooks.example.com/", "url must use https://, not ftp://"],
    [
      "https://user:pass@hooks.example.com/",
      "url must not contain a user name or password; deliveries are signed instead",
    ],
    [
      "https://token@hooks.example.com/",
      "url must not contain a user name or password; deliveries are signed instead",
    ],
    [`https://hooks.example.com/${"a".repeat(2048)}`, "url must be at most 2048 characters"],
  ])("refuses %j with 400 naming the field", (raw, message) => {
    const error = caught(() => parseWebhookUrl(raw));
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.status).toBe(400);
    expect(error.message).toBe(message);
    expect(error.issues).toEqual([{ path: ["url"], message: message.replace(/^url /, "") }]);
  });
});

describe("assertPublicWebhookUrl", () => {
  it.each([
    ["https://127.0.0.1/", "a loopback", "127.0.0.1"],
    ["https://2130706433/", "a loopback", "127.0.0.1"],
    ["https://0177.0.0.1/", "a loopback", "127.0.0.1"],
    ["https://0x7f.1/", "a loopback", "127.0.0.1"],
    ["https://127.1/", "a loopback", "127.0.0.1"],
    ["https://127.0.0.1./", "a loopback", "127.0.0.1"],
    ["https://[::1]/", "a loopback", "::1"],
    ["https://[::ffff:127.0.0.1]/", "a loopback", "::ffff:7f00:1"],
    ["https://[::ffff:7f00:1]/", "a loopback", "::ffff:7f00:1"],
    ["https://[::127.0.0.1]/", "a loopback", "::7f00:1"],
    ["https://[fe80::1]/", "a link-local", "fe80::1"],
    ["https://[fc00::1]/", "a unique local", "fc00::1"],
    ["https://10.0.0.1/", "a private network", "10.0.0.1"],
    ["https://192.168.0.10:8443/hook", "a private network", "192.168.0.10"],
    ["https://100.64.0.1/", "a carrier-grade NAT", "100.64.0.1"],
    ["https://169.254.169.254/latest/meta-data/", "a link-local", "169.254.169.254"],
    ["https://224.0.0.1/", "a multicast", "224.0.0.1"],
    ["https://255.255.255.255/", "a broadcast", "255.255.255.255"],
    ["https://0.0.0.0/", "an unspecified", "0.0.0.0"],
    ["https://[::]/", "an unspecified", "::"],
  ])("refuses %s as %s", async (raw, range, shown) => {
    const error = await refusal(raw, fakeDns({}));
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.message).toBe(`url must not point to ${range} address (${shown})`);
    expect(error.issues[0]?.path).toEqual(["url"]);
  });

  it("words the message as the issue asks", async () => {
    expect((await refusal("https://10.0.0.1/")).message).toBe(
      "url must not point to a private network address (10.0.0.1)",
    );
  });

  it("refuses localhost and names under it without asking DNS", async () => {
    const noDns: LookupAddresses = async () => {
      throw new Error("DNS must not be asked");
    };
    expect((await refusal("https://localhost:3000/", noDns)).message).toBe(
      "url must not point to a loopback address (localhost)",
    );
    expect((await refusal("https://api.localhost/", noDns)).message).toBe(
      "url must not point to a loopback address (api.localhost)",
    );
    expect((await refusal("https://LOCALHOST./", noDns)).message).toBe(
      "url must not point to a loopback address (localhost.)",
    );
  });

  it("refuses a name when any of its addresses is blocked, naming the name and the address", async () => {
    const dns = fakeDns({ "hooks.example.com": ["93.184.215.14", "10.1.2.3"] });
    expect((await refusal("https://hooks.example.com/", dns)).message).toBe(
      "url must not point to a private network address (hooks.example.com resolves to 10.1.2.3)",
    );
    const mapped = fakeDns({ "v6.example.com": ["2606:4700::1", "::ffff:169.254.169.254"] });
    expect((await refusal("https://v6.example.com/", mapped)).message).toBe(
      "url must not point to a link-local address (v6.example.com resolves to ::ffff:169.254.169.254)",
    );
  });

  it("refuses a name that does not resolve", async () => {
    const error = await refusal("https://hooks.exmaple.invalid/", fakeDns({}));
    expect(error.message).toBe("url has a host that does not resolve: hooks.exmaple.invalid (ENOTFOUND)");
    const empty = await refusal("https://empty.example.com/", fakeDns({ "empty.example.com": [] }));
    expect(empty.message).toBe("url has a host that does not resolve: empty.example.com");
  });

  it("accepts public addresses and names that resolve only to them", async () => {
    const dns = fakeDns({ "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
    const options = { allowPrivateNetworks: false, lookup: dns };
    await expect(
      assertPublicWebhookUrl(parseWebhookUrl("https://hooks.example.com/x"), options),
    ).resolves.toBeUndefined();
    await expect(
      assertPublicWebhookUrl(parseWebhookUrl("https://93.184.215.14/"), options),
    ).resolves.toBeUndefined();
    await expect(
      assertPublicWebhookUrl(parseWebhookUrl("https://[2606:4700::1111]/"), options),
    ).resolves.toBeUndefined();
  });

  it("resolves with the system resolver by default", async () => {
    // "localhost" resolves on any machine, offline too (the hosts file), so this needs no network.
    const addresses = await systemLookupAddresses("localhost");
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.every((address) => isBlockedAddress(address) === "loopback")).toBe(true);
  });

  it("checks nothing when private networks are allowed", async () => {
    const noDns: LookupAddresses = async () => {
      throw new Error("DNS must not be asked");
    };
    const options = { allowPrivateNetworks: true, lookup: noDns };
    await expect(
      assertPublicWebhookUrl(parseWebhookUrl("https://127.0.0.1:8443/"), options),
    ).resolves.toBeUndefined();
    await expect(
      assertPublicWebhookUrl(parseWebhookUrl("https://localhost/"), options),
    ).resolves.toBeUndefined();
    await expect(
      assertPublicWebhookUrl(parseWebhookUrl("https://nowhere.invalid/"), options),
    ).resolves.toBeUndefined();
  });
});
