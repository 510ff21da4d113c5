/**
 * Issue 30, trap 1: tracking links that point at localhost in real mail. A provider that delivers
 * (anything but a capturing one) with a loopback or private `baseUrl` is refused by
 * `createMailPulse`, naming the option and the override; the override, a capturing provider and a
 * public `baseUrl` pass. No mail is sent: the refusal comes before anything is wired.
 */
import { createMailPulse, type MailProvider, memoryProvider, unreachableHostReason } from "@mailpulse/core";
import { sqliteStorage } from "@mailpulse/storage-sqlite";
import { describe, expect, it } from "vitest";

const quiet = { info: () => {}, error: () => {} };
const storage = sqliteStorage({ filename: ":memory:" });

/** A provider that would deliver for real: it must never be reached by these tests. */
const relay: MailProvider = {
  send: async () => {
    throw new Error("no message may be sent by this test");
  },
};

describe("createMailPulse with a real provider", () => {
  it.each([
    ["http://localhost:3000", '"localhost"'],
    ["http://127.0.0.1:3000", "a loopback address"],
    ["http://[::1]:3000", "a loopback address"],
    ["http://10.1.2.3", "a private network address"],
    ["http://192.168.1.20/mail", "a private network address"],
    ["http://mailpulse:3000", 'a name without a domain ("mailpulse")'],
    ["http://app.internal", 'a name of the local network ("app.internal")'],
  ])("refuses baseUrl %s, naming the option and the override", (baseUrl, reason) => {
    expect(() => createMailPulse({ storage, baseUrl, mailProvider: relay, logger: quiet })).toThrowError(
      new RegExp(
        `createMailPulse: \`baseUrl\` "${baseUrl.replace(/[[\].]/g, "\\$&")}" is ${reason.replace(/[()]/g, "\\$&")}, yet \`mailProvider\` delivers real mail.*allowPrivateBaseUrl: true.*MAILPULSE_ALLOW_PRIVATE_BASE_URL=true`,
      ),
    );
  });

  it("accepts it with allowPrivateBaseUrl: true", () => {
    const mailpulse = createMailPulse({
      storage,
      baseUrl: "http://localhost:3000",
      mailProvider: relay,
      allowPrivateBaseUrl: true,
      logger: quiet,
    });
    expect(mailpulse.basePath).toBe("/api");
  });

  it("accepts a public baseUrl", () => {
    expect(() =>
      createMailPulse({ storage, baseUrl: "https://mail.example.com", mailProvider: relay, logger: quiet }),
    ).not.toThrow();
  });

  it("accepts a loopback baseUrl with a capturing provider or none", () => {
    expect(() =>
      createMailPulse({
        storage,
        baseUrl: "http://localhost:3000",
        mailProvider: memoryProvider(),
        logger: quiet,
      }),
    ).not.toThrow();
    expect(() => createMailPulse({ storage, baseUrl: "http://localhost:3000", logger: quiet })).not.toThrow();
  });
});

describe("unreachableHostReason", () => {
  it("passes public names and addresses", () => {
    for (const host of ["mail.example.com", "93.184.215.14", "[2606:2800:21f:cb07:6820:80da:af6b:8b2c]"]) {
      expect(unreachableHostReason(host)).toBeUndefined();
    }
  });

  it("names what is wrong with a private one", () => {
    expect(unreachableHostReason("app.localhost")).toBe('"app.localhost"');
    expect(unreachableHostReason("printer.local")).toBe('a name of the local network ("printer.local")');
    expect(unreachableHostReason("172.20.0.4")).toBe("a private network address");
    expect(unreachableHostReason("169.254.1.1")).toBe("a link-local address");
  });
});

describe("createNodeListener's mount point", () => {
  it("logs when baseUrl has a path the listener (at the root) does not serve", async () => {
    const { createNodeListener } = await import("@mailpulse/core/node");
    const errors: string[] = [];
    const logger = { info: () => {}, error: (line: string) => errors.push(line) };
    createNodeListener(createMailPulse({ storage, baseUrl: "https://example.com/mail", logger }));
    expect(errors).toEqual([expect.stringContaining('The Node listener serves the API at "/api"')]);
    errors.length = 0;
    createNodeListener(createMailPulse({ storage, baseUrl: "https://mail.example.com", logger }));
    expect(errors).toEqual([]);
  });
});
